// W1's anchor (d) is only a fair comparison if it answers the page the service answers: the same
// meetings (every field of every item), has_more and total for W1's call, read from the same
// SQLite database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore } from '../support/databases.ts';
import type { Store } from '../../src/store/database.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { principalFromAuth } from '../../src/access/principal.ts';
import { runTool } from '../../src/mcp/run-tool.ts';
import { findTool } from '../../src/mcp/tools/index.ts';
import { startProcess, type Running } from '../../bench/lib/proc.ts';
import { ERAS, send, toolCall } from '../../bench/lib/mcp-requests.ts';
import { samePageAnchor } from '../../bench/workloads/w1-tool-call.ts';
import { DEMO_USER } from '../../bench/workloads/contenders.ts';
import { variables } from '../../src/config/defaults.ts';

describe('bench anchor (d): the SDK as documented serving the same page', () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  let databaseUrl: string;
  let anchor: Running;
  // One "now" for both, seven seconds past a minute: seeded meetings start on quarter hours, so no
  // start sits between the two sides' clocks at a window's edge.
  const now = Math.floor(Date.now() / 60_000) * 60_000 + 7_000;
  const appUrl = variables.APP_URL.default;

  before(async () => {
    let database;
    ({ store, database, cleanup } = await openTestStore('sqlite'));
    databaseUrl = database.url;
    // ~75 meetings in the last 30 days: a full page of 25, more after it, a total under the cap.
    await seedDemo(store, { meetings: 900, documents: 1, appUrl });
    const contender = samePageAnchor(ERAS[0]!, { databaseUrl }, { BENCH_NOW: String(now) });
    anchor = await startProcess(contender.process);
  });
  after(async () => {
    await anchor?.stop();
    await cleanup();
  });

  it('should answer W1’s call with the meetings, has_more and total of the service’s own answer', async () => {
    const user = await store.db.selectFrom('users').select(['id', 'org_id']).where('email', '=', DEMO_USER).executeTakeFirstOrThrow();
    const principal = await principalFromAuth(store.db, { userId: user.id, orgId: user.org_id });
    assert.ok(principal.ok);
    for (const era of ERAS) {
      const served = await runTool(findTool('list_meetings')!, { limit: 25 }, { store, principal: principal.principal, appUrl, cursorKey: 'k'.repeat(32), now });
      const service = served.structuredContent as { meetings: { meeting_id: string }[]; has_more: boolean; total: number | null };
      const { status, reply } = await send(anchor.url, toolCall(era, 'list_meetings', { limit: 25 }));
      assert.equal(status, 200, era);
      assert.equal(reply?.result?.isError, undefined, `${era}: ${JSON.stringify(reply)}`);
      const answered = reply?.result?.structuredContent as typeof service;
      assert.equal(service.meetings.length, 25, 'the service fills the page');
      assert.ok(service.has_more && service.total !== null && service.total > 25, `a page with more after it and a total: ${service.total}`);
      assert.deepEqual(answered.meetings, service.meetings, era);
      assert.deepEqual([answered.has_more, answered.total], [service.has_more, service.total], era);
      assert.equal(reply?.result?.content?.[0]?.text, JSON.stringify(answered), `${era}: its text is its structured content`);
    }
  });
});
