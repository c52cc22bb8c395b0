// Child processes of the harness: contenders (each server in its own process on a free loopback
// port), their readiness, their memory, and a clean stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { freePort } from '../../test/support/free-port.ts';
export { freePort };

export const ROOT = new URL('../../', import.meta.url).pathname;

export type ProcessSpec = {
  /** Arguments to this Node binary (process.execPath, i.e. Node 24 under npm). */
  args: string[];
  /** Extra environment; a function gets the port the harness chose (for BASE_URL). */
  env?: Record<string, string> | ((port: number) => Record<string, string>);
  /** GET this path until it answers 200 to call the process ready. */
  readyPath: string;
  readyTimeoutMs?: number;
};

export type Running = {
  pid: number;
  port: number;
  url: string;
  /** Milliseconds from spawn to the first 200 on readyPath. */
  startMs: number;
  stop(): Promise<void>;
  /** Output the process wrote (tail), for error messages. */
  output(): string;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startProcess(spec: ProcessSpec, port?: number): Promise<Running> {
  const chosen = port ?? (await freePort());
  const started = performance.now();
  const child = spawn(process.execPath, spec.args, {
    cwd: ROOT,
    env: { ...process.env, ...(typeof spec.env === 'function' ? spec.env(chosen) : spec.env), PORT: String(chosen) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const url = `http://127.0.0.1:${chosen}`;
  const deadline = started + (spec.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`process exited with code ${exited} before it was ready: ${tail.trim().slice(-800)}`);
    if (performance.now() > deadline) {
      await stopChild(child);
      throw new Error(`not ready on ${spec.readyPath} within ${spec.readyTimeoutMs ?? 30_000} ms: ${tail.trim().slice(-800)}`);
    }
    try {
      const res = await fetch(url + spec.readyPath, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
  const startMs = performance.now() - started;
  return { pid: child.pid as number, port: chosen, url, startMs, stop: () => stopChild(child), output: () => tail };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(timer);
}

/** Resets the kernel's peak-RSS mark (Linux ≥ 4.0: writing 5 to clear_refs). False when not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** VmHWM and VmRSS of a process in MB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
  } catch {
    return { peakMb: Number.NaN, rssMb: Number.NaN };
  }
}

/** Polls VmRSS while `work` runs; returns the highest value seen (a floor for the true peak). */
export async function sampleRss<T>(pid: number, work: Promise<T>, everyMs = 50): Promise<{ value: T; maxRssMb: number }> {
  let max = memoryOf(pid).rssMb;
  const timer = setInterval(() => {
    const { rssMb } = memoryOf(pid);
    if (rssMb > max) max = rssMb;
  }, everyMs);
  try {
    return { value: await work, maxRssMb: max };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Runs a Node script to completion; resolves with its stdout, rejects with the tails of its stderr
 * and stdout. `progress` receives its stderr line by line as it comes: a long build (a million
 * meetings seeded) reports through the run's own log, which `--quiet` silences.
 */
export async function runNode(args: string[], env: Record<string, string> = {}, timeoutMs = 600_000, options: { progress?: (line: string) => void } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const progress = options.progress;
    let partial = '';
    if (progress) {
      child.stderr?.on('data', (c: Buffer) => {
        const lines = (partial + c.toString()).split(/\r?\n|\r/);
        partial = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) progress(line);
      });
    }
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.length > 20_000) err = err.slice(-10_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (progress && partial.trim()) progress(partial);
      if (code === 0) resolve(out);
      // Both streams' tails: a command may say why it failed on either (a progress line can be stderr's last).
      else reject(new Error(`node ${args.map((a) => (a.length > 80 ? a.slice(0, 77) + '…' : a)).join(' ')} failed (${signal ?? `exit ${code}`}): ${[err.trim().slice(-1200), out.trim().slice(-600)].filter(Boolean).join(' | stdout: ')}`));
    });
  });
}
