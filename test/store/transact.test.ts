// store.transact, the write transaction of the token grants, on both dialects: every caller gets its
// own result or its own error, a failed transaction keeps none of its writes and costs the others
// none of theirs, and a caller hears back only once its writes are committed. On SQLite the ones
// that arrive together share one commit (group-commit.ts), which another connection can see.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NestedTransactionError, openStore, type Store } from '../../src/store/database.ts';
import { GROUP_COMMIT_MAX } from '../../src/store/group-commit.ts';
import { ConflictError } from '../../src/store/errors.ts';
import { createOrganization } from '../../src/store/organizations.ts';
import { createUser, findUserByEmail } from '../../src/store/users.ts';
import { dialectsUnderTest, openTestStore } from '../support/databases.ts';

let unique = 0;
const email = (tag: string) => `${tag}-${Date.now().toString(36)}-${unique++}@example.com`;

for (const dialect of dialectsUnderTest()) {
  describe(`store.transact on ${dialect}`, () => {
    let store: Store;
    /** A second connection to the same database: it sees only what is committed. */
    let other: Store;
    let cleanup: () => Promise<void>;
    let orgId: string;
    before(async () => {
      const opened = await openTestStore(dialect);
      store = opened.store;
      other = openStore(opened.database.config);
      cleanup = async () => {
        await other.close();
        await opened.cleanup();
      };
      orgId = (await createOrganization(store.db, { name: 'Acme', domains: [`t${Date.now().toString(36)}.example`], license: { plan: 'trial', trialEndsAt: Date.now() + 86_400_000, seats: null } })).id;
    });
    after(async () => {
      await cleanup?.();
    });
    const user = (db: Parameters<typeof createUser>[0], address: string) => createUser(db, { orgId, email: address, name: 'T', role: 'member' });
    const exists = async (address: string) => (await findUserByEmail(other.db, orgId, address)) !== undefined;

    it('concurrent transactions each get their own result, and all of them are committed (more than one batch holds)', async () => {
      const addresses = Array.from({ length: GROUP_COMMIT_MAX + 6 }, (_, i) => email(`c${i}`));
      const results = await Promise.all(addresses.map((a) => store.transact(async (trx) => (await user(trx, a)).email)));
      assert.deepEqual(results, addresses);
      for (const a of addresses) assert.ok(await exists(a), `${a} committed`);
    });

    it('a transaction that throws after writing keeps none of its writes; those beside it keep theirs', async () => {
      const taken = email('taken');
      await store.transact((trx) => user(trx, taken));
      const before = email('before');
      const failing = email('failing');
      const failingToo = email('failing-too');
      const after = email('after');
      class Refused extends Error {}
      const outcomes = await Promise.allSettled([
        store.transact((trx) => user(trx, before)),
        store.transact(async (trx) => {
          await user(trx, failing);
          throw new Refused('changed my mind');
        }),
        store.transact(async (trx) => {
          await user(trx, failingToo);
          await user(trx, taken); // an email already committed: a constraint error from the database itself
        }),
        store.transact((trx) => user(trx, after)),
      ]);
      assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      assert.ok((outcomes[1] as PromiseRejectedResult).reason instanceof Refused, 'the caller gets its own error');
      assert.ok((outcomes[2] as PromiseRejectedResult).reason instanceof ConflictError, 'the caller gets its own error');
      assert.equal(await exists(failing), false);
      assert.equal(await exists(failingToo), false);
      assert.ok(await exists(before));
      assert.ok(await exists(after));
    });

    it('a caller hears back only once its writes are committed', async () => {
      const addresses = Array.from({ length: 8 }, (_, i) => email(`d${i}`));
      await Promise.all(
        addresses.map(async (a) => {
          await store.transact((trx) => user(trx, a));
          assert.ok(await exists(a), `${a} is visible to another connection when its caller resumes`);
        }),
      );
    });

    it('a transaction that starts another is refused at once, and neither keeps its writes', async () => {
      const outer = email('outer');
      const inner = email('inner');
      const beside = email('beside');
      const outcomes = await Promise.allSettled([
        store.transact(async (trx) => {
          await user(trx, outer);
          await store.transact((nested) => user(nested, inner));
        }),
        store.transact((trx) => user(trx, beside)),
      ]);
      assert.equal(outcomes[0]?.status, 'rejected');
      assert.ok((outcomes[0] as PromiseRejectedResult).reason instanceof NestedTransactionError);
      assert.equal(outcomes[1]?.status, 'fulfilled');
      assert.equal(await exists(outer), false);
      assert.equal(await exists(inner), false);
      assert.ok(await exists(beside));
      await store.transact((trx) => user(trx, email('later')));
    });

    it('a transaction runs once when nothing beside it fails, and again (its first writes undone) only when a neighbour fails', async () => {
      const runs = new Map<string, number>();
      const counted = (tag: string, body: (trx: Parameters<Parameters<Store['transact']>[0]>[0]) => Promise<unknown>) =>
        store.transact(async (trx) => {
          runs.set(tag, (runs.get(tag) ?? 0) + 1);
          return body(trx);
        });
      // All succeed: each runs once.
      const calm = Array.from({ length: 5 }, (_, i) => email(`calm${i}`));
      await Promise.all(calm.map((a) => counted(a, (trx) => user(trx, a))));
      assert.deepEqual(calm.map((a) => runs.get(a)), [1, 1, 1, 1, 1]);
      // Alone and failing: it fails at once, without a second run.
      class Refused extends Error {}
      const lone = email('lone');
      await assert.rejects(counted(lone, async (trx) => { await user(trx, lone); throw new Refused('no'); }), Refused);
      assert.equal(runs.get(lone), 1);
      assert.equal(await exists(lone), false);
      // Several at once: one fails only on its first run, one always fails (it comes after, so on
      // SQLite the first pass stops before it).
      const [steady, flaky, failing] = [email('steady'), email('flaky'), email('failing')];
      const outcomes = await Promise.allSettled([
        counted(steady, (trx) => user(trx, steady)),
        counted(flaky, async (trx) => { await user(trx, flaky); if (runs.get(flaky) === 1) throw new Refused('first time only'); }),
        counted(failing, async (trx) => { await user(trx, failing); throw new Refused('never'); }),
      ]);
      // SQLite's shared transaction was rolled back after the flaky job's first failure and run again
      // with a savepoint each, where the flaky one succeeds; PostgreSQL's transactions are separate.
      assert.deepEqual(outcomes.map((o) => o.status), dialect === 'sqlite' ? ['fulfilled', 'fulfilled', 'rejected'] : ['fulfilled', 'rejected', 'rejected']);
      assert.deepEqual([steady, flaky, failing].map((a) => runs.get(a)), dialect === 'sqlite' ? [2, 2, 1] : [1, 1, 1]);
      assert.deepEqual(await Promise.all([steady, flaky, failing].map(exists)), [true, dialect === 'sqlite', false]);
    });

    if (dialect === 'sqlite') {
      it('transactions that arrive together share one commit: the second runs before the first is committed', async () => {
        const first = email('first');
        const seen: boolean[] = [];
        await Promise.all([
          store.transact((trx) => user(trx, first)),
          store.transact(async (trx) => {
            seen.push(await exists(first), (await findUserByEmail(trx, orgId, first)) !== undefined);
          }),
        ]);
        assert.deepEqual(seen, [false, true], 'uncommitted to another connection, visible inside the shared transaction');
        assert.ok(await exists(first));
      });
    }
  });
}
