// Named PostgreSQL statements (src/store/postgres.ts) survive a schema change made elsewhere, as
// when another instance migrates during a rolling deploy: a prepared `select *` whose columns
// changed is refused by PostgreSQL on every later execution unless the statement is dropped.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { dialectsUnderTest, createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { createOrganization, findOrganizationRecord } from '../../src/store/organizations.ts';
import { plannedOnceDb } from '../../src/store/plan-cache.ts';

describe('named PostgreSQL statements across a schema change', { skip: !dialectsUnderTest().includes('postgres') && 'SKIP_POSTGRES=1' }, () => {
  let database: TestDatabase;
  let store: Store;
  before(async () => {
    database = await createTestDatabase('postgres');
    // One connection, so every call below reuses the same prepared statement.
    store = openStore({ ...(database.config as { kind: 'postgres'; url: string; poolMax: number }), poolMax: 1 });
    await migrateToLatest(store);
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  it('keeps answering after another connection adds a column to the table a select * reads', async () => {
    const org = await createOrganization(store.db, { name: 'Acme', domains: ['acme.example'], license: { plan: 'trial', trialEndsAt: Date.now() + 86_400_000, seats: null } });
    // Past PostgreSQL's five custom plans, so a generic plan is cached too.
    for (let i = 0; i < 7; i++) assert.equal((await findOrganizationRecord(store.db, org.id))?.name, 'Acme');
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('alter table organizations add column rollout_marker integer');
    } finally {
      await other.end();
    }
    for (let i = 0; i < 3; i++) assert.equal((await findOrganizationRecord(store.db, org.id))?.name, 'Acme');
  });

  it('runs with JIT compilation off on every pool (statements take milliseconds; compiling one took ~0.6 s)', async () => {
    const pools = [store.db, plannedOnceDb(store.db), store.maintenanceDb()];
    assert.equal(new Set(pools).size, 3);
    for (const db of pools) assert.equal((await sql<{ jit: string }>`show jit`.execute(db)).rows[0]?.jit, 'off');
  });

  it("keeps its session options when DATABASE_URL has an options parameter, and applies the URL's others", async () => {
    const url = new URL(database.url);
    url.searchParams.set('options', '-c statement_timeout=12345 -c jit=on');
    const fresh = openStore({ kind: 'postgres', url: url.toString(), poolMax: 2 });
    try {
      for (const db of [fresh.db, plannedOnceDb(fresh.db), fresh.maintenanceDb()]) {
        const r = await sql<{ jit: string; timeout: string; level: string }>`select current_setting('jit') as jit, current_setting('statement_timeout') as timeout, current_setting('transaction_isolation') as level`.execute(db);
        assert.deepEqual(r.rows[0], { jit: 'off', timeout: '12345ms', level: 'read committed' });
      }
    } finally {
      await fresh.close();
    }
  });

  it("runs READ COMMITTED on every pool, whatever the database's default (the participant copies rely on it: migration 0018)", async () => {
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query(`alter database "${new URL(database.url).pathname.slice(1)}" set default_transaction_isolation = 'repeatable read'`);
    } finally {
      await other.end();
    }
    const fresh = openStore({ ...(database.config as { kind: 'postgres'; url: string; poolMax: number }), poolMax: 2 });
    try {
      const pools = [fresh.db, plannedOnceDb(fresh.db), fresh.maintenanceDb()];
      for (const db of pools) {
        const level = await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(db);
        assert.equal(level.rows[0]?.level, 'read committed');
      }
      const check = new pg.Client({ connectionString: database.url });
      await check.connect();
      try {
        assert.equal((await check.query('show default_transaction_isolation')).rows[0]?.default_transaction_isolation, 'repeatable read', 'the database default is what the test set');
      } finally {
        await check.end();
      }
    } finally {
      await fresh.close();
    }
  });
});
