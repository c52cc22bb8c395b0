// The demo dataset: deterministic, two organizations sharing nothing, the fixed demo accounts
// with data under their roles, and a two-hour transcript.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dialectsUnderTest, openTestStore } from '../support/databases.ts';
import type { Store } from '../../src/store/database.ts';
import { AlreadySeededError, demoSeedState, seedDemo } from '../../src/data/seed.ts';
import { DEMO_ACCOUNTS } from '../../src/data/orgs.ts';

const ANCHOR = Date.UTC(2026, 10, 18, 12);

async function snapshot(store: Store) {
  const db = store.db;
  return {
    meetings: (await db.selectFrom('meetings').select(['id', 'title', 'start_at']).orderBy('id').execute()).map((r) => `${r.id}|${r.title}|${r.start_at}`),
    deals: (await db.selectFrom('deals').select(['id', 'amount']).orderBy('id').execute()).map((r) => `${r.id}|${r.amount}`),
    segments: Number((await db.selectFrom('transcript_segments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
  };
}

for (const dialect of dialectsUnderTest()) {
  describe(`demo dataset (${dialect})`, () => {
    let a: Awaited<ReturnType<typeof openTestStore>>;
    let b: Awaited<ReturnType<typeof openTestStore>>;
    before(async () => {
      [a, b] = await Promise.all([openTestStore(dialect), openTestStore(dialect)]);
      await seedDemo(a.store, { meetings: 80, anchor: ANCHOR, documents: 15 });
      await seedDemo(b.store, { meetings: 80, anchor: ANCHOR, documents: 15 });
    });
    after(async () => {
      await a.cleanup();
      await b.cleanup();
    });

    it('is deterministic: the same seed and anchor give the same rows', async () => {
      assert.deepEqual(await snapshot(a.store), await snapshot(b.store));
    });

    it('stops when aborted (npm start stopping during its first-start seed)', async () => {
      const c = await openTestStore(dialect);
      try {
        const controller = new AbortController();
        controller.abort();
        await assert.rejects(seedDemo(c.store, { meetings: 50, anchor: ANCHOR, signal: controller.signal }), { name: 'AbortError' });
        assert.equal((await c.store.db.selectFrom('organizations').select('id').execute()).length, 0);
      } finally {
        await c.cleanup();
      }
    });

    it('tells a seed cut short mid-way from a complete one', async () => {
      assert.equal(await demoSeedState(a.store), 'complete');
      const c = await openTestStore(dialect);
      try {
        assert.equal(await demoSeedState(c.store), 'none');
        const controller = new AbortController();
        // Stop after the first batch of meetings is written: Northwind exists, Globex does not.
        const progress = () => controller.abort();
        await assert.rejects(seedDemo(c.store, { meetings: 600, anchor: ANCHOR, signal: controller.signal, progress }), { name: 'AbortError' });
        assert.equal(await demoSeedState(c.store), 'partial');
      } finally {
        await c.cleanup();
      }
    });

    it('writes each meeting before its participants, so they take its start and deal (and owner, on PostgreSQL) once, not written twice', async () => {
      const c = await openTestStore(dialect);
      try {
        const db = c.store.db;
        // A probe beside the schema's own triggers: as each meeting is written, how many of its participants exist.
        await sql`create table meeting_write_probe (meeting_id text not null, participants_before integer not null)`.execute(db);
        const count = sql.raw(`(select count(*) from participants p where p.org_id = new.org_id and p.meeting_id = new.id)`);
        if (dialect === 'sqlite') {
          await sql`create trigger meeting_write_probe after insert on meetings begin insert into meeting_write_probe values (new.id, ${count}); end`.execute(db);
        } else {
          await sql`create function meeting_write_probe() returns trigger language plpgsql as $$ begin insert into meeting_write_probe values (new.id, ${count}); return null; end $$`.execute(db);
          await sql`create trigger meeting_write_probe after insert on meetings for each row execute function meeting_write_probe()`.execute(db);
        }
        await seedDemo(c.store, { meetings: 60, anchor: ANCHOR, documents: 5 });
        const probed = await sql<{ n: number | string; early: number | string }>`select count(*) as n, sum(case when participants_before > 0 then 1 else 0 end) as early from meeting_write_probe`.execute(db);
        const meetings = await db.selectFrom('meetings').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        assert.equal(Number(probed.rows[0]!.n), Number(meetings.n));
        assert.equal(Number(probed.rows[0]!.early), 0, 'meetings written after some of their participants');
        // Both dialects copy the start and the deal (0011, 0018); PostgreSQL the owner too (0017).
        const owner = dialect === 'postgres' ? sql.raw('p.owner_id is not distinct from m.owner_id') : sql.raw('1 = 1');
        const copies = await sql<{ n: number | string; deals: number | string; copied: number | string }>`select count(*) as n,
            sum(case when m.deal_id is not null then 1 else 0 end) as deals,
            sum(case when p.start_at = m.start_at and p.deal_id is not distinct from m.deal_id and ${owner} then 1 else 0 end) as copied
          from participants p join meetings m on m.org_id = p.org_id and m.id = p.meeting_id`.execute(db);
        const row = copies.rows[0]!;
        assert.ok(Number(row.n) > 100 && Number(row.deals) > 0);
        assert.equal(Number(row.copied), Number(row.n), 'every participant carries its meeting\'s copies');
      } finally {
        await c.cleanup();
      }
    });

    it('refuses to seed a database that already holds the demo organizations', async () => {
      await assert.rejects(seedDemo(a.store, { meetings: 10, anchor: ANCHOR }), AlreadySeededError);
    });

    it('has the fixed demo accounts with their roles, and two orgs that share no row ids', async () => {
      const db = a.store.db;
      for (const account of DEMO_ACCOUNTS) {
        const user = await db.selectFrom('users').select(['role', 'status']).where('email', '=', account.email).executeTakeFirst();
        assert.ok(user, account.email);
        assert.equal(user.role, account.role);
      }
      const orgs = await db.selectFrom('organizations').select('id').execute();
      assert.equal(orgs.length, 2);
      const byOrg = await db.selectFrom('meetings').select(['org_id', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('org_id').execute();
      assert.equal(byOrg.length, 2);
      const users = await db.selectFrom('users').select(['org_id']).execute();
      assert.ok(users.filter((u) => u.org_id === orgs[0]!.id).length >= 5);
    });

    it('gives the member and the viewer attended meetings, and the manager a team with members', async () => {
      const db = a.store.db;
      for (const email of ['mia.member@northwind.example', 'vic.viewer@northwind.example', 'gus.member@globex.example']) {
        const n = await db.selectFrom('participants').select((eb) => eb.fn.countAll<number>().as('n')).where('email', '=', email).executeTakeFirstOrThrow();
        assert.ok(Number(n.n) > 0, email);
      }
      const max = await db.selectFrom('users').select(['id', 'org_id']).where('email', '=', 'max.manager@northwind.example').executeTakeFirstOrThrow();
      const managed = await db.selectFrom('team_members').select('team_id').where('org_id', '=', max.org_id).where('user_id', '=', max.id).where('is_manager', '=', 1).executeTakeFirstOrThrow();
      const members = await db.selectFrom('team_members').select('user_id').where('org_id', '=', max.org_id).where('team_id', '=', managed.team_id).execute();
      assert.ok(members.length > 3);
    });

    it('includes a two-hour meeting with a full transcript, and realistic buyer and seller talk', async () => {
      const db = a.store.db;
      const m = await db.selectFrom('meetings').selectAll().where('title', 'like', '%2 hours%').executeTakeFirstOrThrow();
      assert.equal(m.end_at - m.start_at, 2 * 3_600_000);
      assert.equal(m.has_transcript, 1);
      const segs = await db.selectFrom('transcript_segments').select(['idx', 'end_ms', 'participant_id']).where('org_id', '=', m.org_id).where('meeting_id', '=', m.id).orderBy('idx').execute();
      assert.equal(segs.length, m.segment_count);
      assert.ok(segs.length > 700);
      assert.ok(segs.at(-1)!.end_ms > 110 * 60_000);
      const sides = await db.selectFrom('participants').select('side').where('org_id', '=', m.org_id).where('meeting_id', '=', m.id).execute();
      assert.ok(sides.some((s) => s.side === 'buyer') && sides.some((s) => s.side === 'seller'));
    });
  });
}
