// `npm run fuzz [-- --long] [--runs N] [--isolation-runs N] [--dialect sqlite|postgres] [--seed S]`:
// the endpoint fuzzer of test/reliability/fuzz.test.ts and the tenant-isolation property of
// test/reliability/isolation.test.ts at scale, against services started in this process on
// loopback. --long runs 9,000 cases per endpoint (18,000 for /mcp): 63,000 in all, then 10,000
// isolation cases. Prints the answers by status; exits 1 on a property failure (with its seed).
import { parseArgs } from 'node:util';
import { startFuzzFixture } from '../test/reliability/fuzz/fixture.ts';
import { authorize, register, revoke, token } from '../test/reliability/fuzz/oauth.ts';
import { documents, mcp } from '../test/reliability/fuzz/mcp.ts';
import { closeAgent } from '../test/reliability/fuzz/http.ts';
import { fuzzEndpoint, formatStats, type FuzzStats } from '../test/reliability/fuzz/run.ts';
import { prepareWorld, runIsolation } from '../test/reliability/isolation/property.ts';
import { startTestService } from '../test/support/service.ts';
import { seedDemo } from '../src/data/seed.ts';

const { values } = parseArgs({
  options: {
    long: { type: 'boolean', default: false },
    runs: { type: 'string' },
    dialect: { type: 'string', default: 'sqlite' },
    seed: { type: 'string' },
    'isolation-runs': { type: 'string' },
  },
});
const runs = Number(values.runs ?? (values.long ? 9000 : 1000));
const dialect = values.dialect === 'postgres' ? 'postgres' : 'sqlite';
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);

// Enough users that the per-user MCP limit (120/min) does not turn the run into 429s.
const f = await startFuzzFixture({ dialect, users: values.long ? 400 : 80 });
const started = performance.now();
const stats: FuzzStats[] = [];
let failed = false;
try {
  // Endpoints in parallel (the service serves them concurrently, as in production).
  const endpoints = [register, token, revoke, authorize, mcp, documents];
  const results = await Promise.allSettled(endpoints.map((e, i) => fuzzEndpoint(f, e, { numRuns: e === mcp ? runs * 2 : runs, seed: seed + i })));
  for (const r of results) {
    if (r.status === 'fulfilled') stats.push(r.value);
    else {
      failed = true;
      console.error(r.reason instanceof Error ? r.reason.message : String(r.reason));
    }
  }
} finally {
  closeAgent();
  await f.close();
}
const total = stats.reduce((n, s) => n + s.cases, 0);
console.log(formatStats(stats));
console.log(`\n${total} cases on ${dialect} in ${Math.round((performance.now() - started) / 1000)} s, seed ${seed}: ${failed ? 'FAILED' : 'no 5xx, no hang over 5 s, every answer in its protocol format'}`);

const isolationRuns = Number(values['isolation-runs'] ?? (values.long ? 10_000 : 1000));
if (isolationRuns > 0) {
  const isoStarted = performance.now();
  const service = await startTestService({ dialect });
  try {
    await seedDemo(service.ctx.store, { meetings: 120, documents: 20, appUrl: service.ctx.config.appUrl });
    const result = await runIsolation(await prepareWorld(service), { numRuns: isolationRuns, seed });
    console.log(`tenant isolation on ${dialect}: ${result.cases} tool calls (${result.cases - result.errors} with data, ${result.errors} tool errors) in ${Math.round((performance.now() - isoStarted) / 1000)} s: no record outside the caller's visibility`);
  } catch (error) {
    failed = true;
    console.error(error instanceof Error ? error.message : String(error));
  } finally {
    await service.close();
  }
}
process.exit(failed ? 1 : 0);
