// Tenant isolation, property-based (domain.md "Who sees what"): random users of every role in
// both demo organizations × random tools × random arguments, checked against the policy computed
// independently from the raw tables (isolation/oracle.ts). CI runs 500 per dialect (1,000 in all;
// ISOLATION_RUNS overrides); `npm run fuzz -- --long [--dialect postgres]` runs 10,000 per dialect.
import { after, before, describe, it } from 'node:test';
import { dialectsUnderTest } from '../support/databases.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { seedDemo } from '../../src/data/seed.ts';
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
    });
  });
}
