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

// Rows of statements with fixed result columns are read as arrays and built into ordinary objects
// (src/store/sqlite.ts); they must be what node:sqlite's own row objects hold, and a `select *`
// must still follow a schema change made after its statement was cached.
describe('SQLite dialect: rows', () => {
  let store: Store;
  before(async () => {
    store = openStore({ kind: 'sqlite', path: ':memory:' });
    await sql`create table t (a integer, b text, c blob)`.execute(store.db);
    await sql`insert into t values (1, 'one', x'01'), (2, null, null)`.execute(store.db);
  });
  after(() => store.close());

  it('reads the columns a statement names, with nulls, blobs and aliases, as plain objects', async () => {
    const { rows } = await sql<Record<string, unknown>>`select a, b as label, c, a + 10 as ten, count(*) over () as n from t order by a`.execute(store.db);
    assert.deepEqual(rows, [
      { a: 1, label: 'one', c: new Uint8Array([1]), ten: 11, n: 2 },
      { a: 2, label: null, c: null, ten: 12, n: 2 },
    ]);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
  });

  it('builds plain objects for a statement led by a comment, and still follows a * after it', async () => {
    const named = await sql<Record<string, unknown>>`/* planned per call */ select a, b as label from t order by a`.execute(store.db);
    assert.deepEqual(named.rows, [{ a: 1, label: 'one' }, { a: 2, label: null }]);
    assert.equal(Object.getPrototypeOf(named.rows[0]), Object.prototype);
    const all = await sql<Record<string, unknown>>`/* planned per call */ select * from t where a = 1`.execute(store.db);
    assert.equal(Object.getPrototypeOf(all.rows[0]), null, 'a select * keeps node:sqlite’s own rows');
  });

  it('keeps the later of two columns with one name, at the first one’s place, as node:sqlite does', async () => {
    const { rows } = await sql<Record<string, unknown>>`select a as x, b, a + 100 as x from t where a = 1`.execute(store.db);
    assert.deepEqual(Object.entries(rows[0]!), [['x', 101], ['b', 'one']]);
  });

  it('keeps a column named __proto__ as a column, not a prototype', async () => {
    const { rows } = await sql<Record<string, unknown>>`select b as "__proto__", a from t where a = 1`.execute(store.db);
    assert.deepEqual(Object.entries(rows[0]!), [['__proto__', 'one'], ['a', 1]]);
  });

  it('follows a column added after a select * was cached, and counts rows with count(*)', async () => {
    const all = () => sql<Record<string, unknown>>`select * from t where a = 1`.execute(store.db);
    assert.deepEqual(Object.keys((await all()).rows[0]!), ['a', 'b', 'c']);
    await sql`alter table t add column d text default 'new'`.execute(store.db);
    assert.deepEqual({ ...(await all()).rows[0] }, { a: 1, b: 'one', c: new Uint8Array([1]), d: 'new' });
    assert.deepEqual((await sql<{ n: number }>`select count(*) as n from t`.execute(store.db)).rows, [{ n: 2 }]);
  });

  it('streams the same rows it returns', async () => {
    const query = store.db.selectFrom(sql`t`.as('t')).select(sql<number>`a`.as('a')).orderBy(sql`a`);
    const streamed: unknown[] = [];
    for await (const row of query.stream()) streamed.push(row);
    assert.deepEqual(streamed, await query.execute());
    assert.deepEqual(streamed, [{ a: 1 }, { a: 2 }]);
  });
});
