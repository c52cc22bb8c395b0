// Migrations 0014's, 0015's, 0021's and 0023's indexes, and 0022's rebuilt meetings_start, on SQLite: a
// database that has planner statistics (a bulk load wrote them) gets theirs too, so the planner
// does not guess for them beside measured ones (it then read a page's participants through an
// index in no order and sorted them); one without statistics keeps none, so every index is guessed
// alike. Statistics are SQLite's (sqlite_stat1): PostgreSQL plans plain indexes from its column
// statistics.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { migrateTo } from '../support/migrate-to.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { ANCHOR } from '../mcp/support.ts';

// 0021's accounts_search is gone: 0023 replaced it.
const NEW_INDEXES = [
  'accounts_label',
  'deals_amount',
  'deals_close',
  'deals_search',
  'deals_status_amount',
  'meetings_id_deal',
  'meetings_upcoming',
  'participants_external',
  'participants_meeting_email',
  'users_label',
];

async function statisticsOf(store: Store): Promise<string[] | null> {
  const table = await sql`select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(store.db);
  if (table.rows.length === 0) return null;
  const rows = await sql<{ idx: string }>`select idx from sqlite_stat1 where idx in (${sql.join(NEW_INDEXES)}) order by idx`.execute(store.db);
  return rows.rows.map((r) => r.idx);
}

const REBUILT = 'meetings_start';

async function rebuiltHasStatistics(store: Store): Promise<boolean> {
  const rows = await sql<{ stat: string }>`select stat from sqlite_stat1 where idx = ${REBUILT}`.execute(store.db);
  return rows.rows.length === 1 && rows.rows[0]!.stat.split(' ').length === 5;
}

describe('migrations 0014, 0015, 0021, 0022 and 0023 and planner statistics (sqlite)', () => {
  const opened: { database: TestDatabase; store: Store }[] = [];
  const open = async () => {
    const database = await createTestDatabase('sqlite');
    const store = openStore(database.config);
    opened.push({ database, store });
    return store;
  };
  after(async () => {
    for (const { database, store } of opened) {
      await store.close();
      await database.drop();
    }
  });

  it('gives the new indexes statistics where the database has them', async () => {
    const store = await open();
    await migrateTo(store, '0013-participant-moves');
    await seedDemo(store, { meetings: 40, anchor: ANCHOR, documents: 0 });
    assert.deepEqual(await statisticsOf(store), [], 'the seed analyzed the database, before the indexes existed');
    await migrateToLatest(store);
    assert.deepEqual(await statisticsOf(store), NEW_INDEXES);
    // Its row says how many entries share each prefix of its key, one more column than before.
    assert.ok(await rebuiltHasStatistics(store), `${REBUILT} has its statistics back after its rebuild`);
  });

  it('writes no statistics where the database has none', async () => {
    const store = await open();
    await migrateTo(store, '0013-participant-moves');
    assert.equal(await statisticsOf(store), null);
    await migrateToLatest(store);
    assert.equal(await statisticsOf(store), null);
  });
});
