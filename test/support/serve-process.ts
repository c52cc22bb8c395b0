// `serve` in a child process, as an operator runs it, on a port of its own. Shared by the process
// lifecycle suite, the crash suite and the soak.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { childEnv } from './cli.ts';
import { onFreePort } from './free-port.ts';

export type NodeProcess = {
  child: ChildProcessWithoutNullStreams;
  /** Everything the child wrote so far, stdout and stderr interleaved. */
  output: () => string;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
};

export type ServeProcess = NodeProcess & { port: number; base: string };

/** The banner `serve` prints once it listens (src/cli/serve.ts). */
const BANNER = 'is running';

/** `node …args` with the test's environment (see childEnv), its output collected. */
export function startNode(args: string[], env: Record<string, string>): NodeProcess {
  const child = spawn(process.execPath, args, { env: childEnv(env) });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/**
 * `node …args` (a `serve`), once it has printed its banner, which it writes after it listens.
 * Throws, with the child killed and its output in the message, when it exits first or the
 * deadline passes.
 */
export async function startServe(args: string[], env: Record<string, string>, deadlineMs = 20_000): Promise<NodeProcess> {
  const proc = startNode(args, env);
  let exited = false;
  void proc.exited.then(() => (exited = true));
  const until = Date.now() + deadlineMs;
  while (!proc.output().includes(BANNER)) {
    if (exited || Date.now() > until) {
      proc.child.kill('SIGKILL');
      throw new Error(`serve did not start${exited ? '' : ` within ${deadlineMs} ms`}: ${proc.output().slice(0, 800)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return proc;
}

/**
 * startServe on a port picked for it. A port picked by freePort can be taken by another suite's
 * server before the child binds it; the child then exits with EADDRINUSE (which the error's
 * message names) and this starts it again on a fresh port. Waiting for the banner, not polling
 * /healthz, keeps that other server's answer from passing for the child's.
 */
export async function serveOnFreePort(
  args: string[],
  env: (port: number, base: string) => Record<string, string>,
  deadlineMs = 20_000,
): Promise<ServeProcess> {
  return onFreePort(async (port) => {
    const base = `http://localhost:${port}`;
    return { ...(await startServe(args, env(port, base), deadlineMs)), port, base };
  });
}
