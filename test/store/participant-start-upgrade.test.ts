// Migration 0011 on a database that already holds meetings: every participant takes its meeting's
// start, the lists that read it find the same meetings as before the upgrade, and it can be rolled
// back and applied again (both dialects).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dialectsUnderTest, createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { migrateTo } from '../support/migrate-to.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail } from '../../src/store/users.ts';
import { principalFromAuth, type Principal } from '../../src/access/principal.ts';
import { listMeetings } from '../../src/store/sales/meetings.ts';
import { ANCHOR, EMAILS } from '../mcp/support.ts';

const DAY = 86_400_000;

async function viewer(store: Store): Promise<Principal> {
  const org = (await findOrganizationByDomain(store.db, 'northwind.example'))!;
  const user = (await findUserByEmail(store.db, org.id, EMAILS.vic))!;
  const r = await principalFromAuth(store.db, { userId: user.id, orgId: org.id });
  assert.ok(r.ok);
  return r.principal;
}

/** Participants whose start is missing or differs from their meeting's. */
async function stale(store: Store): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from participants p join meetings m on m.org_id = p.org_id and m.id = p.meeting_id
    where p.start_at is null or p.start_at <> m.start_at`.execute(store.db);
  return Number(r.rows[0]!.n);
}

for (const dialect of dialectsUnderTest()) {
  describe(`migration 0011 on an existing database (${dialect})`, () => {
    let database: TestDatabase;
    let store: Store;
    let before0011: string[];
    const window = { from: ANCHOR - 400 * DAY, to: ANCHOR + 60 * DAY };
    before(async () => {
      database = await createTestDatabase(dialect);
      store = openStore(database.config);
      await migrateTo(store, '0010-passage-statistics');
      await seedDemo(store, { meetings: 60, anchor: ANCHOR, documents: 0 });
      // What the viewer attended, read without the column the migration adds.
      const vic = await viewer(store);
      const attended = await sql<{ id: string }>`select m.id from meetings m where m.org_id = ${vic.orgId} and m.start_at >= ${window.from} and m.start_at < ${window.to}
        and exists (select 1 from participants p where p.org_id = m.org_id and p.meeting_id = m.id and p.email = ${vic.email}) order by m.start_at desc, m.id desc`.execute(store.db);
      before0011 = attended.rows.map((r) => r.id);
    });
    after(async () => {
      await store?.close();
      await database?.drop();
    });

    it('fills every participant with its meeting start, and the viewer keeps the same meetings', async () => {
      assert.ok(before0011.length > 5, 'the viewer attended meetings before the upgrade');
      await migrateToLatest(store);
      assert.equal(await stale(store), 0);
      assert.deepEqual((await listMeetings(store.db, await viewer(store), window, 'desc', null, 500)).rows.map((r) => r.id), before0011);
    });

    it('rolls back to 0010 and applies again', async () => {
      await migrateTo(store, '0010-passage-statistics');
      const columns = await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'participants' and column_name = 'start_at'`
        .execute(store.db)
        .catch(() => undefined);
      if (dialect === 'postgres') assert.deepEqual(columns?.rows, []);
      await migrateToLatest(store);
      assert.equal(await stale(store), 0);
      assert.deepEqual((await listMeetings(store.db, await viewer(store), window, 'desc', null, 500)).rows.map((r) => r.id), before0011);
    });
  });
}
