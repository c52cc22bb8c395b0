// Migration 0023 (SQLite): a meeting list page reads its owners, its accounts and its external
// participants from indexes that hold what it shows, none of their rows, and reads no seller; and
// get_teams still reads its teams' members first, each one's label from the users' new index.
// SQLite only: PostgreSQL has no such indexes (the migration says why). What the page shows is
// checked against the stored rows in test/mcp/tools/list-meetings.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type CompiledQuery } from 'kysely';
import { ANCHOR, EMAILS, seededStore, type Seeded } from '../mcp/support.ts';
import { listMeetings, listQuery } from '../../src/store/sales/meetings.ts';
import { externalParticipantsQuery } from '../../src/store/sales/meeting-participants.ts';
import { membersQuery } from '../../src/store/sales/teams-view.ts';

const DAY = 86_400_000;

describe('a meeting list page reads its lookups from indexes alone (sqlite, migration 0023)', () => {
  let s: Seeded;
  before(async () => {
    s = await seededStore('sqlite');
  });
  after(() => s.cleanup());

  const planOf = async (q: CompiledQuery) => (await s.store.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` })).rows.map((r) => r.detail);
  const window = { from: ANCHOR - 30 * DAY, to: ANCHOR };

  it("reads each meeting's owner and account from an index", async () => {
    const ada = await s.principal(EMAILS.ada);
    const plan = await planOf(listQuery(s.store.db, ada, window, 'desc', null, 26, null));
    assert.ok(plan.includes('SEARCH u USING COVERING INDEX users_label (org_id=? AND id=?) LEFT-JOIN'), plan.join('\n'));
    assert.ok(plan.includes('SEARCH a USING COVERING INDEX accounts_label (org_id=? AND id=?) LEFT-JOIN'), plan.join('\n'));
  });

  it("reads the page's external participants from participants_external alone", async () => {
    const ada = await s.principal(EMAILS.ada);
    const { rows } = await listMeetings(s.store.db, ada, window, 'desc', null, 26);
    assert.ok(rows.some((r) => r.external.length > 0), 'the page has external participants');
    const q = externalParticipantsQuery(s.store.db, ada.orgId, rows.map((r) => r.id));
    // No temporary b-tree: the index gives them in the order the page wants (by meeting, then id).
    assert.deepEqual(await planOf(q), ['SEARCH participants USING COVERING INDEX participants_external (org_id=? AND meeting_id=?)']);
    // The side is the index's own literal. As a parameter the plan reads the same, but SQLite,
    // whose choice of a partial index then hangs on the value, prepares the statement again each
    // time it is bound: every call.
    assert.match(q.sql, /"side" <> 'seller'/);
    assert.ok(!q.parameters.includes('seller'), JSON.stringify(q.parameters));
    // It holds no seller: the index is partial (a whole one plans the page alike), so SQLite cannot
    // read sellers from it at all.
    await assert.rejects(sql`select count(*) from participants indexed by participants_external where side = 'seller'`.execute(s.store.db), /no query solution/);
  });

  it("reads the teams' members first, then each one's label from an index (get_teams)", async () => {
    const ada = await s.principal(EMAILS.ada);
    const teams = await s.store.db.selectFrom('teams').select('id').where('org_id', '=', ada.orgId).execute();
    assert.ok(teams.length > 1, 'several teams');
    const plan = await planOf(membersQuery(s.store.db, ada.orgId, teams.map((t) => t.id)).compile());
    assert.deepEqual(plan.slice(0, 2), ['SEARCH tm USING INDEX sqlite_autoindex_team_members_1 (org_id=? AND team_id=?)', 'SEARCH u USING COVERING INDEX users_label (org_id=? AND id=?)'], plan.join('\n'));
  });
});
