// The soak: the real server in a child process (so its RSS is its own) on a seeded SQLite file,
// driven open-loop on loopback at a fixed rate with mixed traffic — MCP tool calls in both eras,
// refreshes, registrations, page views and metadata reads — for a bounded time. Reports errors,
// p99 per window and the server's RSS after warm-up against the end.
import type { ChildProcess } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { runCli } from '../../support/cli.ts';
import { serveOnFreePort } from '../../support/serve-process.ts';
import { startArgs } from '../../../bench/lib/service.ts';
import { fullFlow, mcpRequest, refreshTokens, registerClient, type Client, type Tokens } from '../support/oauth-flow.ts';

export type SoakOptions = {
  durationS: number;
  rate: number;
  /** Warm-up: JIT, caches and the heap's working size settle under extra page traffic (× 3 the rate); RSS is measured from its end. */
  warmupS: number;
  /** Extra page views per second during the warm-up (default 3 × rate). */
  warmupExtraRate?: number;
  windowS: number;
  users?: number;
  log?: (line: string) => void;
};
export type SoakWindow = { endS: number; requests: number; errors: number; p50: number; p99: number; rssMb: number };
export type SoakResult = {
  requests: number;
  errors: number;
  errorSamples: string[];
  windows: SoakWindow[];
  rssAfterWarmupMb: number;
  rssEndMb: number;
  rssGrowth: number;
  /** JS heap in use after a full GC, at the end of warm-up and at the end. */
  heapAfterWarmupMb: number;
  heapEndMb: number;
  heapGrowth: number;
  byKind: Record<string, number>;
};

const PAGES = ['/', '/developers', '/developers/tools', '/security', '/pricing', '/llms.txt', '/sitemap.xml', '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp', '/.well-known/mcp.json', '/openapi.json'];
const TOOL_CALLS: [string, Record<string, unknown>][] = [
  ['list_meetings', { range: 'last_30_days', limit: 10 }], ['get_deals', { limit: 10 }], ['get_teams', {}], ['list_reports', { limit: 5 }],
  ['list_agents', {}], ['ask_documents', { question: 'Who approves discounts?' }],
];

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const HEAP_PROBE = fileURLToPath(new URL('./heap-probe.ts', import.meta.url));

/** The server's JS heap in use right after a full collection (see heap-probe.ts), in MB. */
async function heapAfterGcMb(child: ChildProcess, dir: string): Promise<number> {
  const file = join(dir, 'heap');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (now && now !== before) return Number(now.trim().split(' ')[1]) / 1024 / 1024;
  }
  throw new Error('the server did not answer the heap probe');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

async function startServer(): Promise<{ child: ChildProcess; base: string; dir: string; emails: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'aas-soak-'));
  const env = {
    APP_ENV: 'development', DATABASE_URL: `sqlite:${join(dir, 'soak.db')}`, DATA_DIR: dir,
    HASH_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    OAUTH_REGISTER_PER_HOUR: '1000000', OAUTH_REQUESTS_PER_MINUTE: '1000000', LOG_LEVEL: 'warn',
  };
  const seeded = await runCli(['seed', '--meetings', '300'], env, 120_000);
  if (seeded.code !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  const db = new DatabaseSync(join(dir, 'soak.db'), { readOnly: true });
  const emails = db.prepare(`select email from users where status = 'active' and email like '%@northwind.example' order by email`).all().map((r) => String(r.email));
  db.close();
  // As `npm start` runs the server, its Node options (the young generation's size among them) and
  // entry: without the options V8 grew its young generation to its default bound well after the
  // warm-up, a step of ~50 MB of RSS that the growth check read as a leak.
  const server = await serveOnFreePort(startArgs(['serve'], ['--expose-gc', '--import', HEAP_PROBE]), (port, base) => ({ ...env, PORT: String(port), BASE_URL: base, HEAP_PROBE_FILE: join(dir, 'heap') }));
  // What the server says from here on (warnings, errors) shows beside the soak's own lines.
  server.child.stderr.pipe(process.stderr);
  return { child: server.child, base: server.base, dir, emails };
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => {});
  const { child, base, dir, emails } = await startServer();
  // An interrupted soak takes its server down with it.
  const onSignal = () => {
    child.kill('SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // Sessions: each user's own client and token pair (the MCP limit is 120 calls a minute per user).
    const sessions: { client: Client; tokens: Tokens; busy: boolean }[] = [];
    const count = Math.min(emails.length, options.users ?? Math.max(4, Math.ceil((options.rate * 0.6 * 60) / 80)));
    for (let i = 0; i < count; i++) {
      const email = emails[i]!;
      const { client, tokens } = await fullFlow(base, email);
      sessions.push({ client, tokens, busy: false });
    }
    log(`soak: ${count} sessions, ${options.rate} requests/s for ${options.durationS} s`);

    const result: SoakResult = { requests: 0, errors: 0, errorSamples: [], windows: [], rssAfterWarmupMb: 0, rssEndMb: 0, rssGrowth: 0, heapAfterWarmupMb: 0, heapEndMb: 0, heapGrowth: 0, byKind: {} };
    const latencies: number[] = [];
    let windowErrors = 0;
    const rss: { t: number; mb: number }[] = [];
    const started = performance.now();
    const fail = (what: string) => {
      result.errors += 1;
      windowErrors += 1;
      if (result.errorSamples.length < 10) result.errorSamples.push(what);
    };
    const one = async (n: number, warmup = false) => {
      const roll = warmup ? 15 + (n % 5) : n % 20;
      // Spread each kind of request over every session (a plain n % sessions would give each
      // session one kind only, and its own user's rate limit).
      const session = sessions[((Math.imul(n, 2654435761) >>> 0) >>> 8) % sessions.length]!;
      const t0 = performance.now();
      let kind = 'page';
      try {
        if (roll < 12) {
          kind = 'tool';
          const [name, args] = TOOL_CALLS[n % TOOL_CALLS.length]!;
          const res = await mcpRequest(base, session.tokens.access_token, 'tools/call', { name, arguments: args }, Math.floor(n / 20) % 2 ? 'modern' : 'legacy', n);
          const text = await res.text();
          if (res.status !== 200 || text.includes('"isError":true')) fail(`${name}: ${res.status} ${text.slice(0, 200)}`);
        } else if (roll < 14 && !session.busy) {
          kind = 'refresh';
          session.busy = true;
          const res = await refreshTokens(base, session.client, session.tokens.refresh_token);
          if (res.status === 200) session.tokens = (await res.json()) as Tokens;
          else fail(`refresh: ${res.status} ${await res.text()}`);
          session.busy = false;
        } else if (roll === 14) {
          kind = 'register';
          await registerClient(base);
        } else {
          const res = await fetch(`${base}${PAGES[n % PAGES.length]}`);
          await res.arrayBuffer();
          if (res.status !== 200) fail(`page ${PAGES[n % PAGES.length]}: ${res.status}`);
        }
      } catch (error) {
        fail(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
      }
      result.requests += 1;
      result.byKind[kind] = (result.byKind[kind] ?? 0) + 1;
      latencies.push(performance.now() - t0);
    };

    const inflight = new Set<Promise<void>>();
    let n = 0;
    let extra = 0;
    let nextWindow = options.windowS;
    const end = started + options.durationS * 1000;
    while (performance.now() < end) {
      const elapsedS = (performance.now() - started) / 1000;
      const due = Math.floor(elapsedS * options.rate);
      while (n < due && inflight.size < 256) {
        const p = one(n++).finally(() => inflight.delete(p));
        inflight.add(p);
      }
      // The warm-up's extra traffic: page views and metadata only (no per-user limits there).
      const extraDue = Math.floor(Math.min(elapsedS, options.warmupS) * (options.warmupExtraRate ?? options.rate * 3));
      while (extra < extraDue && inflight.size < 256) {
        const p = one(1_000_000 + extra++, true).finally(() => inflight.delete(p));
        inflight.add(p);
      }
      if (rss.length === 0 || elapsedS - rss.at(-1)!.t >= 1) rss.push({ t: elapsedS, mb: rssMb(child.pid!) });
      if (!result.heapAfterWarmupMb && elapsedS >= options.warmupS) result.heapAfterWarmupMb = await heapAfterGcMb(child, dir);
      if (elapsedS >= nextWindow) {
        const w: SoakWindow = { endS: Math.round(elapsedS), requests: latencies.length, errors: windowErrors, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), rssMb: rss.at(-1)!.mb };
        result.windows.push(w);
        log(`soak: ${w.endS}s ${w.requests} req, ${w.errors} errors, p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, RSS ${w.rssMb.toFixed(0)} MB`);
        latencies.length = 0;
        windowErrors = 0;
        nextWindow += options.windowS;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inflight);
    // RSS: the median of the samples just after warm-up against the median of the last ones.
    const afterWarmup = rss.filter((s) => s.t >= options.warmupS).slice(0, 5).map((s) => s.mb);
    const last = rss.slice(-5).map((s) => s.mb);
    result.rssAfterWarmupMb = median(afterWarmup);
    result.rssEndMb = median(last);
    result.rssGrowth = result.rssEndMb / result.rssAfterWarmupMb - 1;
    result.heapEndMb = await heapAfterGcMb(child, dir);
    result.heapGrowth = result.heapEndMb / result.heapAfterWarmupMb - 1;
    return result;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}
