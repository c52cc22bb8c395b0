// Tenant isolation, property-based (domain.md "Who sees what"): random users of every role in
// both demo organizations × random tools × random arguments, checked against the policy computed
// independently from the raw tables (isolation/oracle.ts). CI runs 500 per dialect (1,000 in all;
// ISOLATION_RUNS overrides); `npm run fuzz -- --long [--dialect postgres]` runs 10,000 per dialect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { tools } from '../../src/mcp/tools/index.ts';
import { prepareWorld, runIsolation, type IsolationWorld } from './isolation/property.ts';

const RUNS = Number(process.env.ISOLATION_RUNS ?? 500);

for (const dialect of dialectsUnderTest()) {
  describe(`tenant isolation on ${dialect}`, () => {
    let service: TestService;
    let world: IsolationWorld;
    before(async () => {
      service = await startTestService({ dialect });
      await seedDemo(service.ctx.store, { meetings: 120, documents: 20, appUrl: service.ctx.config.appUrl });
      world = await prepareWorld(service);
    });
    after(() => service?.close());

    it(`never shows a record outside the caller's visibility in ${RUNS} random tool calls`, async () => {
      const stats = await runIsolation(world, { numRuns: RUNS });
      if (process.env.FUZZ_VERBOSE) console.log(dialect, stats);
      // A property over nothing passes: check the calls were made, and (with enough of them, about half
      // of which answer with data) that they reached every tool and returned records to check.
      assert.equal(stats.cases, RUNS, 'every generated call was made and checked');
      if (RUNS >= 200) {
        assert.deepEqual(tools.map((t) => t.name).filter((name) => !stats.byTool[name]), [], 'tools never called');
        assert.ok(stats.cases - stats.errors >= RUNS / 5, `only ${stats.cases - stats.errors} of ${RUNS} calls answered with data: ${JSON.stringify(stats.errorCodes)}`);
      }
    });
  });
}
