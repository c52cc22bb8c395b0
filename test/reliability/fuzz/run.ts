// Runs one endpoint's generated requests through fast-check against a live fixture, counting
// answers by status, and re-checks at the end that the service still answers (no crash).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Fixture } from './fixture.ts';
import { send, Unsendable, type FuzzRequest } from './http.ts';
import type { Endpoint } from './oauth.ts';

/** `generated`: requests fast-check produced; `cases`: those sent, answered and checked. */
export type FuzzStats = { endpoint: string; generated: number; cases: number; unsendable: number; byStatus: Record<number, number>; maxMs: number };

function headBytes(req: FuzzRequest): number {
  return req.path.length + Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + Buffer.byteLength(v) + 4, 0);
}

function describe(req: FuzzRequest): string {
  const cut = (v: string) => (v.length > 300 ? `${v.slice(0, 300)}… (${v.length} chars)` : v);
  return JSON.stringify({ method: req.method, path: cut(req.path), headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, cut(v)])), body: typeof req.body === 'string' ? cut(req.body) : req.body });
}

export async function fuzzEndpoint(f: Fixture, endpoint: Endpoint, options: { numRuns: number; seed?: number }): Promise<FuzzStats> {
  const stats: FuzzStats = { endpoint: endpoint.name, generated: 0, cases: 0, unsendable: 0, byStatus: {}, maxMs: 0 };
  const property = fc.asyncProperty(endpoint.arbitrary(f), async (req: FuzzRequest) => {
    stats.generated += 1;
    let res;
    try {
      res = await send(f.base, req);
    } catch (error) {
      // Over Node's 16 KiB header limit the parser answers 431 and may reset the connection
      // before our code runs: that is the transport's answer, not ours.
      if (headBytes(req) > 16 * 1024 && /ECONNRESET|EPIPE|socket hang up/.test(String(error))) {
        stats.byStatus[431] = (stats.byStatus[431] ?? 0) + 1;
        return;
      }
      if (error instanceof Unsendable) {
        stats.unsendable += 1;
        return;
      }
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nrequest: ${describe(req)}`);
    }
    stats.cases += 1;
    stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
    stats.maxMs = Math.max(stats.maxMs, res.ms);
    // Node's HTTP parser answers oversized headers itself (431, before any of our code runs).
    if (res.status === 431 && res.body === '') return;
    try {
      endpoint.check(f, req, res);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nrequest: ${describe(req)}\nanswer: ${res.status} ${res.body.slice(0, 500)}`);
    }
  });
  const details = await fc.check(property, { numRuns: options.numRuns, seed: options.seed });
  if (details.failed) {
    // fast-check's own report prints the whole counterexample (bodies of a megabyte): keep it short.
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${endpoint.name}: property failed after ${details.numRuns} cases (seed ${details.seed}, path "${details.counterexamplePath}")\n${cause.slice(0, 3000)}`);
  }
  const health = await send(f.base, { method: 'GET', path: '/healthz', headers: {} });
  assert.equal(health.status, 200, `the service stopped answering after fuzzing ${endpoint.name}`);
  return stats;
}

export function formatStats(stats: FuzzStats[]): string {
  return stats
    .map((s) => `${s.endpoint.padEnd(36)} ${String(s.cases).padStart(7)} cases  max ${Math.round(s.maxMs)} ms  ${Object.entries(s.byStatus).map(([k, v]) => `${k}×${v}`).join(' ')}${s.unsendable ? `  (unsendable ${s.unsendable})` : ''}`)
    .join('\n');
}
