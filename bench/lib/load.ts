// Runs loads (autocannon) in a child process of their own, one at a time: the load generator never
// shares the harness's event loop. The child stays up between loads, one JSON spec in and one JSON
// result out per line: starting a fresh one for each load (Node, the driver, autocannon's import)
// cost ~0.5 s a load, ~40 s of a quick run's ~3 minutes, and measured the first requests of every
// round with a cold driver.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { LoadResult, LoadSpec } from './driver.ts';
import { ROOT } from './proc.ts';

/** How long the driver (autocannon) waits for one response before it counts a timeout. */
export const REQUEST_TIMEOUT_S = 10;

const DRIVER = new URL('./driver.ts', import.meta.url).pathname;

type Driver = { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string>; stderr: () => string };

let driver: Driver | undefined;

function startDriver(): Driver {
  const child = spawn(process.execPath, [DRIVER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => {
    err = (err + c.toString()).slice(-4000);
  });
  const d: Driver = { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr: () => err.trim() };
  // Idle between loads, it must not keep the harness alive: referenced only while a load runs.
  child.unref();
  setRef(d, false);
  return d;
}

function setRef(d: Driver, on: boolean): void {
  for (const stream of [d.child.stdin, d.child.stdout, d.child.stderr]) (stream as unknown as { ref(): void; unref(): void })[on ? 'ref' : 'unref']();
}

/** Loads run one after another (the driver answers its lines in order): a second caller waits its turn. */
let turn: Promise<unknown> = Promise.resolve();

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const run = turn.then(() => runOne(spec));
  turn = run.catch(() => undefined);
  return run;
}

async function runOne(spec: LoadSpec): Promise<LoadResult> {
  const d = (driver ??= startDriver());
  setRef(d, true);
  let timer: NodeJS.Timeout | undefined;
  try {
    d.child.stdin.write(JSON.stringify(spec) + '\n');
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the load driver gave no result within ${spec.durationS + 60} s`)), (spec.durationS + 60) * 1000);
    });
    const next = await Promise.race([d.lines.next(), timeout]);
    if (next.done) throw new Error(`the load driver exited: ${d.stderr().slice(-1200)}`);
    return JSON.parse(next.value) as LoadResult;
  } catch (error) {
    // A driver that failed once is not trusted with the next load.
    d.child.kill('SIGKILL');
    driver = undefined;
    throw error;
  } finally {
    clearTimeout(timer);
    if (driver === d) setRef(d, false);
  }
}

export type { LoadResult, LoadSpec };
