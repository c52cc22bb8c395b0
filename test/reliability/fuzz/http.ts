// Raw HTTP for the fuzzer: node:http (not fetch, which normalises or refuses odd requests), a
// keep-alive agent, and a hard deadline — an answer that takes longer than DEADLINE_MS is a hang.
import { Agent, request } from 'node:http';

export const DEADLINE_MS = 5000;

export type FuzzRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
};

export type FuzzResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: string; ms: number };

/** The request could not be expressed on the wire (node refuses the header or path): nothing sent. */
export class Unsendable extends Error {}

const agent = new Agent({ keepAlive: true, maxSockets: 32 });

export function send(base: string, req: FuzzRequest): Promise<FuzzResponse> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    let r: ReturnType<typeof request>;
    try {
      r = request(
        { host: url.hostname, port: url.port, method: req.method, path: req.path, headers: { host: url.host, ...req.headers }, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            done(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started })),
          );
          res.on('error', (e) => done(() => reject(e)));
        },
      );
    } catch (error) {
      reject(new Unsendable(error instanceof Error ? error.message : String(error)));
      return;
    }
    const timer = setTimeout(() => {
      done(() => reject(new Error(`no complete answer within ${DEADLINE_MS} ms: ${req.method} ${req.path.slice(0, 120)}`)));
      r.destroy();
    }, DEADLINE_MS);
    r.on('error', (e: NodeJS.ErrnoException) => {
      // The server may close a connection on a request it refuses outright (e.g. 413 before reading).
      done(() => reject(e));
    });
    r.end(req.body);
  });
}

export function closeAgent(): void {
  agent.destroy();
}
