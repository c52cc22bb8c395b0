// Fuzzing every endpoint with generated requests (short CI form, on each dialect; `npm run fuzz --
// --long` runs ≥ 50,000). No 5xx, no crash, no answer slower than 5 s, every answer in its
// protocol's format. FUZZ_RUNS sets the cases per endpoint and dialect (twice that for /mcp).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { startTestService } from '../support/service.ts';
import { startFuzzFixture, type Fixture } from './fuzz/fixture.ts';
import { authorize, register, revoke, token } from './fuzz/oauth.ts';
import { documents, mcp } from './fuzz/mcp.ts';
import { closeAgent } from './fuzz/http.ts';
import { fuzzEndpoint, formatStats, type FuzzStats } from './fuzz/run.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

for (const dialect of dialectsUnderTest()) {
  describe(`fuzzing every endpoint (${dialect})`, () => {
    let f: Fixture;
    const stats: FuzzStats[] = [];
    before(async () => {
      f = await startFuzzFixture({ dialect });
    });
    after(async () => {
      await f?.close();
      if (process.env.FUZZ_VERBOSE) console.log(formatStats(stats));
    });

    for (const endpoint of [register, token, revoke, authorize, mcp, documents]) {
      const runs = endpoint === mcp ? RUNS * 2 : RUNS;
      it(`answers ${endpoint.name} in its protocol's format for ${runs} generated requests`, async () => {
        const result = await fuzzEndpoint(f, endpoint, { numRuns: runs });
        stats.push(result);
        // A property over nothing passes: every generated request counts, and nearly all of them reach the
        // service and are checked (the rest cannot be sent, or Node's parser resets an oversized head).
        assert.equal(result.generated, runs, 'generated requests');
        assert.ok(result.cases >= runs * 0.9, `only ${result.cases} of ${runs} generated requests were answered and checked (${result.unsendable} unsendable)`);
      });
    }
  });
}

after(() => closeAgent());

// Regressions the long PostgreSQL run found: NUL in a client_id reached a text comparison
// PostgreSQL refuses (22021) and became a 500.
describe('text PostgreSQL refuses (NUL) never reaches it as a 500', () => {
  for (const dialect of dialectsUnderTest()) {
    it(`answers a NUL client_id with a 4xx on ${dialect}`, async () => {
      const service = await startTestService({ dialect });
      try {
        const authorizeRes = await fetch(`${service.baseUrl}/oauth/authorize?client_id=%00&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&response_type=code&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256`);
        assert.equal(authorizeRes.status, 400);
        const read = await fetch(`${service.baseUrl}/oauth/register/%00`, { headers: { authorization: 'Bearer abc' } });
        assert.equal(read.status, 401);
        const tokenRes = await fetch(`${service.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token&refresh_token=x&client_id=%00' });
        assert.equal(tokenRes.status, 401);
      } finally {
        await service.close();
      }
    });
  }
});
