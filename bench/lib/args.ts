// Command-line options of `npm run bench`.

export type BenchOptions = {
  quick: boolean;
  /** Workload ids to run (W1…W6); empty = all. */
  only: string[];
  /** Measured rounds per contender (each round is one load run; contenders alternate A B A B …). */
  rounds: number;
  /** Seconds of load per round. */
  durationS: number;
  /** Seconds of unmeasured load per contender at least before the first round (JIT, caches, connections). */
  warmupS: number;
  /** Requests each contender serves unmeasured at least, unless warmupMaxS comes first (lib/compare.ts warm). */
  warmupRequests: number;
  /** The most seconds a warm-up may take to serve warmupRequests. */
  warmupMaxS: number;
  /** Only the anchors (no service contender): the smoke test and a machine ceiling check. */
  anchorsOnly: boolean;
  /** Where latest.md / latest.json go. */
  outDir: string;
  /** Where datasets are cached. */
  dataDir: string;
  /** No progress lines on stderr (tests). */
  quiet: boolean;
  /** Run the service contenders under `node --cpu-prof`, writing profiles here. */
  profileDir: string | undefined;
  /** Run the service contenders under V8's sampling heap profiler (lib/alloc-probe.mjs), writing profiles here. */
  allocProfileDir: string | undefined;
  /** Datasets above this many meetings are skipped with a note (small disks, short sessions). */
  maxMeetings: number;
  /** Document datasets above this many documents are skipped with a note (W3). */
  maxDocuments: number;
};

export const USAGE = `Usage: npm run bench -- [--quick] [--only W1,W4] [--rounds N] [--duration S] [--warmup S] [--warmup-requests N] [--warmup-max S] [--anchors-only] [--max-meetings N] [--max-documents N] [--profile] [--alloc-profile] [--quiet] [--out DIR] [--data DIR]

  --quick          a sanity run in under 3 minutes: short rounds, small datasets
  --only W1,W4     run only these workloads
  --rounds N       measured rounds per contender (default 5; quick 2)
  --duration S     seconds of load per round (default 10; quick 1)
  --warmup S       seconds of unmeasured load before the rounds, at least (default 3; quick 0.5)
  --warmup-requests N  and then 2 s more at a time until the contender has served N requests
                   (default 30000; quick, and with --warmup 0: 0)
  --warmup-max S   but no longer than S seconds in all (default 30)
  --anchors-only   skip the service contenders (the harness smoke test uses this)
  --out DIR        where latest.md and latest.json are written (default bench/results)
  --data DIR       dataset cache (default data/bench)
  --quiet          no progress lines
  --max-meetings N skip datasets above N meetings (noted in the results)
  --max-documents N  skip document datasets above N documents (W3; noted in the results)
  --profile        run the service under node --cpu-prof (profiles in bench/results/profiles)
  --alloc-profile  sample what the service allocates, collected objects included (.heapprofile, same place)
`;

export class UsageError extends Error {}

export function parseArgs(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const options: BenchOptions = {
    quick,
    only: [],
    rounds: quick ? 2 : 5,
    durationS: quick ? 1 : 10,
    warmupS: quick ? 0.5 : 3,
    warmupRequests: Number.NaN,
    warmupMaxS: Number.NaN,
    anchorsOnly: false,
    outDir: 'bench/results',
    dataDir: 'data/bench',
    quiet: false,
    profileDir: undefined,
    allocProfileDir: undefined,
    maxMeetings: Infinity,
    maxDocuments: Infinity,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? (arg.split(/=(.*)/s, 2) as [string, string]) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const positive = (name: string, text: string, allowZero = false): number => {
      const n = Number(text);
      if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) throw new UsageError(`${name}: expected a positive number, got ${JSON.stringify(text)}`);
      return n;
    };
    switch (flag) {
      case '--quick':
        break;
      case '--only':
        options.only = value()
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean);
        for (const id of options.only) if (!/^W[1-6]$/.test(id)) throw new UsageError(`--only: unknown workload ${id} (W1…W6)`);
        break;
      case '--rounds':
        options.rounds = Math.round(positive('--rounds', value()));
        break;
      case '--duration':
        options.durationS = positive('--duration', value());
        break;
      case '--warmup':
        options.warmupS = positive('--warmup', value(), true);
        break;
      case '--warmup-requests':
        options.warmupRequests = Math.round(positive('--warmup-requests', value(), true));
        break;
      case '--warmup-max':
        options.warmupMaxS = positive('--warmup-max', value(), true);
        break;
      case '--anchors-only':
        options.anchorsOnly = true;
        break;
      case '--quiet':
        options.quiet = true;
        break;
      case '--max-meetings':
        options.maxMeetings = Math.round(positive('--max-meetings', value()));
        break;
      case '--max-documents':
        options.maxDocuments = Math.round(positive('--max-documents', value()));
        break;
      case '--profile':
        options.profileDir = 'bench/results/profiles';
        break;
      case '--alloc-profile':
        options.allocProfileDir = 'bench/results/profiles';
        break;
      case '--out':
        options.outDir = value();
        break;
      case '--data':
        options.dataDir = value();
        break;
      case '--help':
      case '-h':
        throw new UsageError('');
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  // A warm-up counted in requests unless it is a sanity run or none was asked for.
  if (Number.isNaN(options.warmupRequests)) options.warmupRequests = options.quick || options.warmupS === 0 ? 0 : DEFAULT_WARMUP_REQUESTS;
  if (Number.isNaN(options.warmupMaxS)) options.warmupMaxS = Math.max(DEFAULT_WARMUP_MAX_S, options.warmupS);
  if (options.warmupMaxS < options.warmupS) throw new UsageError(`--warmup-max ${options.warmupMaxS} is shorter than --warmup ${options.warmupS}`);
  return options;
}

/** Where W1's contenders, from a fresh process, stopped getting faster: ~20,000–30,000 requests (lib/compare.ts). */
const DEFAULT_WARMUP_REQUESTS = 30_000;
const DEFAULT_WARMUP_MAX_S = 30;
