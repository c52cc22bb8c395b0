// Shaped statements (src/store/prepared.ts): compiled once per set of facts, bound per call, on
// both dialects; and under the test runner a builder that branches on a value its binder did not
// record as a fact is caught on the first call whose SQL would differ.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Store } from '../../src/store/database.ts';
import { shaped } from '../../src/store/prepared.ts';
import { createOrganization } from '../../src/store/organizations.ts';
import { dialectsUnderTest, openTestStore } from '../support/databases.ts';

type Filter = { domainLike?: string; names: string[] };

/** Organizations by name, optionally by a domain pattern: presence and list length are facts. */
const byName = shaped<[Filter]>()(
  (db, f) => {
    let q = db.selectFrom('organizations').select('name').where('name', 'in', f.names.length ? f.names : ['\u0001none']);
    if (f.domainLike !== undefined) q = q.where(sql<boolean>`exists (select 1 from org_domains d where d.org_id = organizations.id and d.domain like ${f.domainLike})`);
    return q.orderBy('name');
  },
  (b, f) => [{ names: Array.from({ length: b.fact(f.names.length) }, (_, i) => b.value(f.names[i]!)), ...(b.fact(f.domainLike !== undefined) ? { domainLike: b.value(f.domainLike) } : {}) }],
);

/** The same query with a binder that forgets that the domain filter's presence shapes the SQL. */
const forgetful = shaped<[Filter]>()(
  (db, f) => {
    let q = db.selectFrom('organizations').select('name').where('name', 'in', f.names);
    if (f.domainLike !== undefined) q = q.where(sql<boolean>`exists (select 1 from org_domains d where d.org_id = organizations.id and d.domain like ${f.domainLike})`);
    return q.orderBy('name');
  },
  (b, f) => [{ names: Array.from({ length: b.fact(f.names.length) }, (_, i) => b.value(f.names[i]!)), ...(f.domainLike !== undefined ? { domainLike: b.value(f.domainLike) } : {}) }],
);

for (const dialect of dialectsUnderTest()) {
  describe(`shaped statements (${dialect})`, () => {
    let store: Store;
    let cleanup: (() => Promise<void>) | undefined;
    const tag = `s${Date.now().toString(36)}`;
    before(async () => {
      ({ store, cleanup } = await openTestStore(dialect));
      const license = { plan: 'trial' as const, trialEndsAt: Date.now() + 86_400_000, seats: null };
      for (const n of ['a', 'b', 'c']) await createOrganization(store.db, { name: `${tag}-${n}`, domains: [`${n}.${tag}.example`], license });
    });
    after(async () => {
      await cleanup?.();
    });

    it('binds each call\'s values into the shape compiled first, and compiles each new shape', async () => {
      const names = (...n: string[]) => n.map((x) => `${tag}-${x}`);
      assert.deepEqual((await byName.execute(store.db, { names: names('a', 'b') })).map((r) => r.name), names('a', 'b'));
      assert.deepEqual((await byName.execute(store.db, { names: names('c', 'b') })).map((r) => r.name), names('b', 'c'));
      assert.deepEqual((await byName.execute(store.db, { names: names('a', 'b', 'c'), domainLike: `b.${tag}%` })).map((r) => r.name), names('b'));
      assert.deepEqual((await byName.execute(store.db, { names: names('a', 'b', 'c'), domainLike: `c.${tag}%` })).map((r) => r.name), names('c'));
      assert.deepEqual(await byName.execute(store.db, { names: [] }), []);
      assert.deepEqual((await byName.execute(store.db, { names: names('a') })).map((r) => r.name), names('a'));
    });

    it('fails a call whose SQL differs from its shape\'s, instead of running the wrong statement', async () => {
      const names = [`${tag}-a`, `${tag}-b`];
      assert.equal((await forgetful.execute(store.db, { names })).length, 2);
      await assert.rejects(forgetful.execute(store.db, { names, domainLike: `a.${tag}%` }), /binder misses a fact/);
    });
  });
}
