// Keyset pages of meetings (src/store/sales/keyset.ts, meetings.ts): a page behind a cursor starts
// its index range at the cursor, ties at one start_at are decided by id, and both orders page
// through exactly the matching meetings. On PostgreSQL the list statement runs on the store's
// planned-once pool (plan-cache.ts), other statements and transactions on the main pool.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { dialectsUnderTest, createTestDatabase, openTestStore, type TestDatabase } from '../support/databases.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { plannedOnceDb } from '../../src/store/plan-cache.ts';
import type { Database } from '../../src/store/schema.ts';
import { createOrganization } from '../../src/store/organizations.ts';
import { createUser } from '../../src/store/users.ts';
import { principalFromAuth, type Principal } from '../../src/access/principal.ts';
import { listMeetings, type MeetingFilters } from '../../src/store/sales/meetings.ts';
import type { KeysetOrder } from '../../src/store/sales/keyset.ts';
import { listReports } from '../../src/store/sales/reports.ts';
import { countDeals, findVisibleDeal, listDeals, type DealFilters, type DealSort } from '../../src/store/sales/deals.ts';
import { dealMeetingStats } from '../../src/store/sales/deal-meetings.ts';

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 0, 5, 9);
/** 40 distinct start times, 1 to 6 meetings at each: ties cross page boundaries in both orders. */
const TIMES = 40;

async function seed(store: Store): Promise<{ principal: Principal; meetings: { id: string; start_at: number }[] }> {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const org = await createOrganization(store.db, { name: 'Keyset', domains: [`k${unique}.example`], license: { plan: 'trial', trialEndsAt: Date.now() + 86_400_000, seats: null } });
  const user = await createUser(store.db, { orgId: org.id, email: `admin@k${unique}.example`, name: 'Admin', role: 'admin' });
  const meetings: { id: string; start_at: number }[] = [];
  for (let t = 0; t < TIMES; t++) {
    for (let k = 0; k < 1 + ((t * 7) % 6); k++) meetings.push({ id: `mtg_${unique}_${String((t * 31 + k * 17) % 997).padStart(3, '0')}_${k}`, start_at: BASE + t * HOUR });
  }
  await store.db
    .insertInto('meetings')
    .values(
      meetings.map((m) => ({
        org_id: org.id, id: m.id, title: `Call ${m.id}`, start_at: m.start_at, end_at: m.start_at + HOUR / 2, status: 'completed' as const, owner_id: user.id,
        team_id: null, deal_id: null, account_id: null, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]',
        has_transcript: 0, transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: BASE,
      })),
    )
    .execute();
  const result = await principalFromAuth(store.db, { userId: user.id, orgId: org.id });
  if (!result.ok) throw new Error(result.message);
  return { principal: result.principal, meetings };
}

const expected = (meetings: { id: string; start_at: number }[], order: KeysetOrder) =>
  [...meetings].sort((a, b) => (a.start_at - b.start_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * (order === 'asc' ? 1 : -1)).map((m) => m.id);

async function pageThrough(store: Store, p: Principal, f: MeetingFilters, order: KeysetOrder, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let position: [number, string] | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const { rows } = await listMeetings(store.db, p, f, order, position, limit + 1);
    seen.push(...rows.slice(0, limit).map((r) => r.id));
    if (rows.length <= limit) return seen;
    const last = rows[limit - 1]!;
    position = [last.start_at, last.id];
  }
  throw new Error('did not finish paging');
}

for (const dialect of dialectsUnderTest()) {
  describe(`keyset pages of meetings (${dialect})`, () => {
    let t: Awaited<ReturnType<typeof openTestStore>>;
    let seeded: Awaited<ReturnType<typeof seed>>;
    before(async () => {
      t = await openTestStore(dialect);
      seeded = await seed(t.store);
    });
    after(() => t.cleanup());

    for (const order of ['desc', 'asc'] as const) {
      for (const limit of [1, 4, 7]) {
        it(`pages ${order} by ${limit} through every meeting once, ties ordered by id`, async () => {
          const window = { from: BASE - HOUR, to: BASE + TIMES * HOUR };
          assert.deepEqual(await pageThrough(t.store, seeded.principal, window, order, limit), expected(seeded.meetings, order));
        });
      }
    }

    it('keeps to the window on pages behind a cursor, at either edge', async () => {
      // The window cuts through tied start times: from includes time 10, to excludes time 30.
      const window = { from: BASE + 10 * HOUR, to: BASE + 30 * HOUR };
      const inside = seeded.meetings.filter((m) => m.start_at >= window.from && m.start_at < window.to);
      for (const order of ['desc', 'asc'] as const) assert.deepEqual(await pageThrough(t.store, seeded.principal, window, order, 3), expected(inside, order));
    });

    it('pages deals through tied close dates and amounts within their own bounds, in every sort', async () => {
      const { orgId, userId } = seeded.principal;
      await t.store.db.insertInto('accounts').values({ org_id: orgId, id: 'acc_keyset', domain: 'keyset-buyer.example', name: 'Keyset Buyer', created_at: BASE }).execute();
      const deals = Array.from({ length: 60 }, (_, i) => ({ id: `deal_${String((i * 23) % 60).padStart(2, '0')}`, close_date: `2026-03-${String(10 + (i % 10)).padStart(2, '0')}`, amount: 1000 * (1 + (i % 8)) }));
      await t.store.db
        .insertInto('deals')
        .values(deals.map((d) => ({ org_id: orgId, id: d.id, account_id: 'acc_keyset', name: `Deal ${d.id}`, owner_id: userId, team_id: null, stage: 'discovery', status: 'open' as const, amount: d.amount, currency: 'USD', close_date: d.close_date, crm_system: 'none' as const, crm_opportunity_id: null, crm_url: null, crm_custom_fields: '{}', created_at: BASE, updated_at: BASE })))
        .execute();
      const sorts: [DealSort, DealFilters, (d: (typeof deals)[number]) => string | number][] = [
        ['close_date_desc', { closeFrom: '2026-03-12', closeTo: '2026-03-17' }, (d) => d.close_date],
        ['close_date_asc', { closeFrom: '2026-03-12', closeTo: '2026-03-17' }, (d) => d.close_date],
        ['amount_desc', { amountMin: 2000, amountMax: 6000 }, (d) => d.amount],
        ['amount_asc', { amountMin: 2000, amountMax: 6000 }, (d) => d.amount],
      ];
      for (const [sort, f, key] of sorts) {
        const inside = deals.filter((d) => (f.closeFrom === undefined || (d.close_date >= f.closeFrom && d.close_date <= f.closeTo!)) && (f.amountMin === undefined || (d.amount >= f.amountMin && d.amount <= f.amountMax!)));
        const sign = sort.endsWith('desc') ? -1 : 1;
        const want = [...inside].sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : 1)).map((d) => d.id);
        const seen: string[] = [];
        let position: [string | number, string] | null = null;
        for (let pages = 0; pages < 100; pages++) {
          const rows = await listDeals(t.store.db, seeded.principal, f, sort, position, 5);
          seen.push(...rows.slice(0, 4).map((r) => r.id));
          if (rows.length <= 4) break;
          const last = rows[3]!;
          position = [sort.startsWith('amount') ? last.amount : last.close_date, last.id];
        }
        assert.deepEqual(seen, want, sort);
      }
    });

    it('counts the whole window on a page behind a cursor when asked to', async () => {
      const window = { from: BASE - HOUR, to: BASE + TIMES * HOUR };
      const all = expected(seeded.meetings, 'desc');
      const page = await listMeetings(t.store.db, seeded.principal, window, 'desc', [seeded.meetings.find((m) => m.id === all[20])!.start_at, all[20]!], 6, 500);
      assert.deepEqual(page.rows.map((r) => r.id), all.slice(21, 27));
      assert.equal(page.total, all.length);
    });
  });
}

describe('keyset pages and plans on PostgreSQL', { skip: !dialectsUnderTest().includes('postgres') && 'SKIP_POSTGRES=1' }, () => {
  let database: TestDatabase;
  let store: Store;
  let seeded: Awaited<ReturnType<typeof seed>>;
  before(async () => {
    database = await createTestDatabase('postgres');
    // One connection per pool, so every call below runs on the same sessions and sees their prepared statements.
    store = openStore({ ...(database.config as { kind: 'postgres'; url: string; poolMax: number }), poolMax: 1 });
    await migrateToLatest(store);
    seeded = await seed(store);
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  const window = () => ({ from: BASE - HOUR, to: BASE + TIMES * HOUR });

  /** Index entries of one index read so far by statements of both pools' sessions, as PostgreSQL's statistics count them. */
  async function indexEntriesRead(index: string): Promise<number> {
    // Each session flushes its counts as this statement ends.
    for (const db of [plannedOnceDb(store.db), store.db]) await sql`select pg_stat_force_next_flush()`.execute(db);
    const row = (await sql<{ n: string }>`select idx_tup_read as n from pg_stat_user_indexes where indexrelname = ${index}`.execute(store.db)).rows[0];
    return Number(row!.n);
  }

  it('starts a page behind a cursor at the cursor in the index: the meetings before it are not read', async () => {
    const all = expected(seeded.meetings, 'desc');
    const read = () => indexEntriesRead('meetings_start');
    await sql`set enable_seqscan = off`.execute(store.db); // the table is small; production's is not
    try {
      for (const depth of [80, 120]) {
        const cursorAt = seeded.meetings.find((m) => m.id === all[depth])!;
        const before = await read();
        const { rows } = await listMeetings(store.db, seeded.principal, window(), 'desc', [cursorAt.start_at, cursorAt.id], 6);
        const after = await read();
        assert.deepEqual(rows.map((r) => r.id), all.slice(depth + 1, depth + 7));
        // Six rows (seven read) and the ties at the cursor's start time (at most six), not the `depth` rows before it.
        assert.ok(after - before >= 7 && after - before <= 14, `a page ${depth} meetings deep read ${after - before} index entries`);
      }
    } finally {
      await sql`reset enable_seqscan`.execute(store.db);
    }
  });

  it('starts a report page behind a cursor at the cursor too (a list with no window on its key)', async () => {
    const reports = Array.from({ length: 120 }, (_, i) => ({ id: `rpt_${String((i * 37) % 120).padStart(3, '0')}`, period_end: `2026-0${1 + (i % 9)}-${String(10 + Math.floor(i / 9)).padStart(2, '0')}` }));
    await store.db
      .insertInto('reports')
      .values(reports.map((r) => ({ org_id: seeded.principal.orgId, id: r.id, title: `Report ${r.id}`, type: 'weekly' as const, period_start: '2026-01-01', period_end: r.period_end, generated_at: BASE, agent_id: null, team_id: null, owner_id: null, visibility: 'org' as const, section_count: 0, total_chars: 0 })))
      .execute();
    const all = [...reports].sort((a, b) => (a.period_end < b.period_end ? 1 : a.period_end > b.period_end ? -1 : a.id < b.id ? 1 : -1));
    await sql`set enable_seqscan = off`.execute(store.db);
    try {
      const at = all[90]!;
      const before = await indexEntriesRead('reports_period');
      const rows = await listReports(store.db, seeded.principal, {}, [at.period_end, at.id], 5);
      const after = await indexEntriesRead('reports_period');
      assert.deepEqual(rows.map((r) => r.id), all.slice(91, 96).map((r) => r.id));
      assert.ok(after - before >= 5 && after - before <= 10, `a page 90 reports deep read ${after - before} index entries`);
    } finally {
      await sql`reset enable_seqscan`.execute(store.db);
    }
  });

  it('runs the meeting list on the planned-once pool, with generic plans only, and everything else on the main pool', async () => {
    const once = plannedOnceDb(store.db);
    assert.notEqual(once, store.db);
    for (let i = 0; i < 8; i++) await listMeetings(store.db, seeded.principal, window(), 'desc', null, 26, 500);
    const setting = async (db: Kysely<Database>) => (await sql<{ m: string }>`select current_setting('plan_cache_mode') as m, ${1}::int as one`.execute(db)).rows[0]!.m;
    assert.equal(await setting(once), 'force_generic_plan');
    assert.equal(await setting(store.db), 'auto');
    const plans = (db: Kysely<Database>) =>
      sql<{ generic_plans: string; custom_plans: string }>`select generic_plans, custom_plans from pg_prepared_statements where statement like ${'%"m"."title"%limit 26%'}`.execute(db);
    const onOnce = (await plans(once)).rows;
    assert.equal(onOnce.length, 1);
    assert.equal(Number(onOnce[0]!.custom_plans), 0);
    assert.ok(Number(onOnce[0]!.generic_plans) >= 8);
    assert.deepEqual((await plans(store.db)).rows, []);
  });

  it('plans a list with an indexed filter for its values on every call: never a prepared statement on either pool', async () => {
    const byEmail = { ...window(), participantEmails: ['someone@buyer.example'] };
    const byOwner = { ...window(), ownerId: seeded.principal.userId };
    // More than five runs: PostgreSQL may switch a named statement to a generic plan after five.
    for (let i = 0; i < 7; i++) {
      await listMeetings(store.db, seeded.principal, byEmail, 'desc', null, 27, 500);
      await listMeetings(store.db, seeded.principal, byOwner, 'desc', null, 27, 500);
    }
    const prepared = async (db: Kysely<Database>) =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${'%"m"."title"%limit 27%'}`.execute(db)).rows[0]!.n;
    assert.deepEqual([await prepared(plannedOnceDb(store.db)), await prepared(store.db)], [0, 0]);
    // The same shape without the filter is prepared (on the planned-once pool): the query above would see it.
    await listMeetings(store.db, seeded.principal, window(), 'desc', null, 27, 500);
    assert.equal(await prepared(plannedOnceDb(store.db)), 1);
  });

  it('plans deal pages, counts and meeting stats for their values on every call: never a prepared statement', async () => {
    // More than five runs: PostgreSQL may switch a named statement to a generic plan after five.
    for (let i = 0; i < 7; i++) {
      const page = await listDeals(store.db, seeded.principal, { status: 'open' }, 'close_date_asc', null, 11);
      await countDeals(store.db, seeded.principal, { status: 'open' });
      await dealMeetingStats(store.db, seeded.principal, page.map((d) => d.id).concat('deal_none'), BASE);
      await findVisibleDeal(store.db, seeded.principal, 'deal_none');
    }
    const prepared = async (like: string) => (await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${like}`.execute(store.db)).rows[0]!.n;
    assert.deepEqual(
      [await prepared('%from "deals" as "d"%limit 11%'), await prepared('%count(*) as "n" from "deals"%'), await prepared('%"m"."deal_id" in%')],
      [0, 0, 0],
    );
    // One deal's lookup is named, as every other statement: the query above would see a prepared one.
    assert.equal(await prepared('%from "deals" as "d"%"d"."crm_opportunity_id"%'), 1);
  });

  it('runs the meeting list inside a transaction on the transaction\'s own connection, planned as PostgreSQL chooses', async () => {
    const inside = await store.db.transaction().execute(async (trx) => {
      const page = await listMeetings(trx, seeded.principal, window(), 'desc', null, 26, 500);
      const mode = (await sql<{ m: string }>`select current_setting('plan_cache_mode') as m`.execute(trx)).rows[0]!.m;
      const listed = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${'%"m"."title"%limit 26%'}`.execute(trx);
      return { rows: page.rows.length, mode, listed: listed.rows[0]!.n };
    });
    assert.deepEqual(inside, { rows: 26, mode: 'auto', listed: 1 });
  });
});
