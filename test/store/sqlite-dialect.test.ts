// The SQLite dialect writes whole-number page sizes into the SQL (a bound LIMIT reads slower; see
// src/store/sqlite.ts) and binds everything else, and the limit still limits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';

describe('SQLite dialect: literal page sizes', () => {
  let store: Store;
  before(async () => {
    store = openStore({ kind: 'sqlite', path: ':memory:' });
    await migrateToLatest(store);
  });
  after(() => store.close());

  it('inlines a whole-number limit and binds the values around it', () => {
    const compiled = store.db.selectFrom('organizations').select('id').where('name', '=', 'x').limit(26).compile();
    assert.match(compiled.sql, /limit 26$/);
    assert.deepEqual(compiled.parameters, ['x']);
  });

  it('keeps a limit that is not a whole number (or an expression) bound', () => {
    assert.match(store.db.selectFrom('organizations').select('id').limit(2.5).compile().sql, /limit \?$/);
    assert.match(store.db.selectFrom('organizations').select('id').limit(sql<number>`1 + 1`).compile().sql, /limit 1 \+ 1$/);
  });

  it('returns at most that many rows', async () => {
    const rows = await sql<{ n: number }>`with recursive c(n) as (select 1 union all select n + 1 from c where n < 10) select n from c`.execute(store.db);
    assert.equal(rows.rows.length, 10);
    const page = await store.db.selectFrom(sql<{ n: number }>`(with recursive c(n) as (select 1 union all select n + 1 from c where n < 10) select n from c)`.as('c')).select('n').limit(3).execute();
    assert.equal(page.length, 3);
  });
});
