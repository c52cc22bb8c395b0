// The load generator, run as its own process so it never shares a CPU queue or a heap with the
// harness or the server under test, and kept up between loads (load.ts). Input: one JSON LoadSpec
// per line on stdin (never argv: it may hold tokens, and argv shows in process lists and error
// messages). Output: one JSON LoadResult per line on stdout. Latencies are kept per response
// (exact p50/p95/p99; autocannon's own histogram has no p95).
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { percentile } from './stats.ts';
import { REQUEST_TIMEOUT_S } from './load.ts';

export type LoadSpec = {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationS: number;
  /**
   * OAuth refresh rotation: each request sends a live refresh token and the rotated one its
   * response returns goes back into play (a rotated token is single-use). `form` is the rest of the body.
   */
  refreshChain?: { tokens: string[]; form: Record<string, string> };
};

export type LoadResult = {
  requests: number;
  elapsedS: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
  /** For refresh chains: the live tokens left (those in flight at the stop are lost), to continue with. */
  tokensOut?: string[];
  /** For refresh chains: the status and start of the first failed response, to say why. */
  firstFailure?: string;
};

/**
 * Refresh rotation over one shared queue of live tokens: a request takes the oldest token, its
 * response puts the rotated one back. Every token is sent once. (Not per-connection state:
 * autocannon resets a connection's context after every request of a one-request list.)
 */
function refreshRequests(spec: LoadSpec, queue: string[]) {
  const chain = spec.refreshChain as NonNullable<LoadSpec['refreshChain']>;
  let firstFailure: string | undefined;
  const request = {
    method: spec.method,
    path: new URL(spec.url).pathname,
    headers: spec.headers,
    // Out of tokens: send one that cannot work (autocannon stops dead on a request it cannot
    // build), so the run finishes and reports the failures.
    setupRequest: (req: Record<string, unknown>) => ({ ...req, body: new URLSearchParams({ ...chain.form, refresh_token: queue.shift() ?? 'exhausted' }).toString() }),
    onResponse: (status: number, body: string) => {
      let next: unknown;
      if (status === 200) {
        try {
          next = (JSON.parse(body) as { refresh_token?: unknown }).refresh_token;
        } catch {
          next = undefined;
        }
      }
      if (typeof next === 'string') queue.push(next);
      else firstFailure ??= `${status}: ${body.slice(0, 300)}`;
    },
  };
  return { requests: [request], tokensOut: () => [...queue], firstFailure: () => firstFailure };
}

export async function drive(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let non2xx = 0;
  const pool = spec.refreshChain ? [...spec.refreshChain.tokens] : [];
  const refresh = spec.refreshChain ? refreshRequests(spec, pool) : undefined;
  const started = performance.now();
  const instance = autocannon({
    url: spec.url,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: spec.durationS,
    pipelining: 1,
    timeout: REQUEST_TIMEOUT_S,
    ...(refresh ? { requests: refresh.requests } : {}),
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (statusCode < 200 || statusCode > 299) non2xx++;
  });
  const result = await instance;
  const elapsedS = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    requests: sorted.length,
    elapsedS,
    rps: sorted.length / (result.duration || elapsedS),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
    non2xx,
    errors: result.errors + result.timeouts,
    statuses,
    ...(refresh ? { tokensOut: refresh.tokensOut(), firstFailure: refresh.firstFailure() } : {}),
  };
}

// As a child of the harness (load.ts): one spec per line on stdin, one result per line on stdout,
// until stdin ends.
if (import.meta.main) {
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const result = await drive(JSON.parse(line) as LoadSpec);
    process.stdout.write(JSON.stringify(result) + '\n');
  }
}
