// Migration 0018: each participant carries its meeting's deal, and a non-admin's deal set reads the
// deals of their attended meetings from it (access/visibility.ts linkedDealIds). A copy left behind
// would show a deal no meeting of theirs links any more, so every write that changes the link is
// followed here, through what a viewer (who sees deals only through attended meetings) lists and
// counts: an import that changes or clears a meeting's deal, a deleted meeting, participants
// written before their meeting, a participant moved to another meeting. And the upgrade fills the
// copy for the rows already there (both dialects). On SQLite, a count by status reads deals from
// migration 0019's index.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { dialectsUnderTest, createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { ANCHOR, EMAILS, seededStore, type Seeded } from '../mcp/support.ts';
import { importDirectory } from '../../src/data/import.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { migrateTo } from '../support/migrate-to.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { createUser, findUserByEmail } from '../../src/store/users.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { principalFromAuth, type Principal } from '../../src/access/principal.ts';
import { countDeals, countQuery, listDeals } from '../../src/store/sales/deals.ts';
import { dealVisibleTo, loadWorld } from './policy-oracle.ts';

const DAY = 86_400_000;
const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Participants whose deal is not their meeting's: a different one, or any while their meeting is missing. */
async function drift(store: Store): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from participants p left join meetings m on m.org_id = p.org_id and m.id = p.meeting_id
    where (m.id is null and p.deal_id is not null) or (m.id is not null and (p.deal_id <> m.deal_id or (p.deal_id is null) <> (m.deal_id is null)))`.execute(store.db);
  return Number(r.rows[0]!.n);
}

/** Every deal the caller sees, all statuses, by every page of 5, and the count: they must agree. */
async function dealsOf(store: Store, p: Principal): Promise<string[]> {
  const ids: string[] = [];
  let after: [string | number, string] | null = null;
  for (let pages = 0; pages < 200; pages++) {
    const rows = await listDeals(store.db, p, {}, 'close_date_asc', after, 6);
    ids.push(...rows.slice(0, 5).map((d) => d.id));
    if (rows.length <= 5) break;
    after = [rows[4]!.close_date, rows[4]!.id];
  }
  assert.equal(await countDeals(store.db, p, {}), ids.length, `${p.email}: the count and the pages`);
  return ids.sort();
}

for (const dialect of dialectsUnderTest()) {
  describe(`participants carry their meeting's deal (${dialect})`, () => {
    let s: Seeded;
    let orgId: string;
    let adminId: string;
    let vera: Principal;
    let dealA: string;
    let dealB: string;
    let dealC: string;
    let dir: string;

    /** One import of meeting `id` (deal or none) with the viewer among its participants, as the CLI reads it. */
    async function importMeeting(id: string, deal: string | null) {
      const start = ANCHOR - 3 * DAY;
      writeFileSync(join(dir, 'meetings.ndjson'), ndjson([{ id, title: `Deal copy ${id}`, start: new Date(start).toISOString(), end: new Date(start + 3_600_000).toISOString(), status: 'completed', owner_email: EMAILS.ada, meeting_type: 'external', deal_id: deal }]));
      writeFileSync(join(dir, 'participants.ndjson'), ndjson([{ meeting_id: id, id: 1, name: 'Vera Viewer', email: vera.email, side: 'seller', talk_time_ms: 0 }]));
      const reports = await importDirectory(s.store, orgId, dir);
      assert.deepEqual(reports.filter((r) => r.status === 'rejected'), []);
    }
    const meeting = (id: string, deal: string | null) => ({
      org_id: orgId, id, title: `Deal copy ${id}`, start_at: ANCHOR - 2 * DAY, end_at: ANCHOR - 2 * DAY + 1_800_000, status: 'completed' as const, owner_id: adminId, team_id: null,
      deal_id: deal, account_id: null, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0,
      transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
    });
    const attendee = (meetingId: string, id: number) => ({ org_id: orgId, meeting_id: meetingId, id, email: vera.email, name: 'Vera Viewer', user_id: null, side: 'seller' as const, company: null, title: null, talk_time_ms: 0 });

    before(async () => {
      s = await seededStore(dialect, 40);
      const ada = await s.principal(EMAILS.ada);
      orgId = ada.orgId;
      adminId = ada.userId;
      // A viewer who attends nothing yet: every deal she sees comes from the meetings below.
      await createUser(s.store.db, { orgId, email: 'vera.viewer@northwind.example', name: 'Vera Viewer', role: 'viewer' });
      vera = await s.principal('vera.viewer@northwind.example');
      [dealA, dealB, dealC] = (await s.store.db.selectFrom('deals').select('id').where('org_id', '=', orgId).orderBy('id').limit(3).execute()).map((d) => d.id) as [string, string, string];
      dir = mkdtempSync(join(tmpdir(), 'participant-deal-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await s.cleanup();
    });

    it('follows a meeting whose deal an import changes, clears and sets again', async () => {
      assert.deepEqual(await dealsOf(s.store, vera), []);
      await importMeeting('mtg-copy-1', dealA);
      assert.deepEqual(await dealsOf(s.store, vera), [dealA]);
      await importMeeting('mtg-copy-1', dealB);
      assert.deepEqual(await dealsOf(s.store, vera), [dealB]);
      await importMeeting('mtg-copy-1', null);
      assert.deepEqual(await dealsOf(s.store, vera), []);
      await importMeeting('mtg-copy-1', dealA);
      assert.deepEqual(await dealsOf(s.store, vera), [dealA]);
      assert.equal(await drift(s.store), 0);
    });

    it('takes the deal back from the participants of a deleted meeting, who outlive it', async () => {
      await s.store.db.deleteFrom('meetings').where('org_id', '=', orgId).where('id', '=', 'mtg-copy-1').execute();
      assert.deepEqual(await dealsOf(s.store, vera), []);
      const left = await s.store.db.selectFrom('participants').select('id').where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-copy-1').execute();
      assert.equal(left.length, 1, 'the participant is still there');
      assert.equal(await drift(s.store), 0);
      // Written again, the meeting hands its deal to the participant it finds.
      await s.store.db.insertInto('meetings').values(meeting('mtg-copy-1', dealC)).execute();
      assert.deepEqual(await dealsOf(s.store, vera), [dealC]);
    });

    it('gives its deal to participants written before it, and to a participant moved to it', async () => {
      await s.store.db.insertInto('participants').values(attendee('mtg-copy-2', 1)).execute();
      assert.deepEqual(await dealsOf(s.store, vera), [dealC]);
      await s.store.db.insertInto('meetings').values(meeting('mtg-copy-2', dealB)).execute();
      assert.deepEqual(await dealsOf(s.store, vera), [dealB, dealC].sort());
      // The participant of mtg-copy-1 (deal C) moves to mtg-copy-3 (deal A): C is no longer hers.
      await s.store.db.insertInto('meetings').values(meeting('mtg-copy-3', dealA)).execute();
      await s.store.db.updateTable('participants').set({ meeting_id: 'mtg-copy-3' }).where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-copy-1').execute();
      assert.deepEqual(await dealsOf(s.store, vera), [dealA, dealB].sort());
      // A plain update of the meeting's deal, as any writer might.
      await s.store.db.updateTable('meetings').set({ deal_id: dealC }).where('org_id', '=', orgId).where('id', '=', 'mtg-copy-2').execute();
      assert.deepEqual(await dealsOf(s.store, vera), [dealA, dealC].sort());
      assert.equal(await drift(s.store), 0);
    });

    it("keeps each organization's copy to its own meetings, where another organization uses the same meeting id", async () => {
      const gia = await s.principal(EMAILS.gia);
      const theirDeal = (await s.store.db.selectFrom('deals').select('id').where('org_id', '=', gia.orgId).orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
      const before = await dealsOf(s.store, vera);
      // Globex writes meeting mtg-copy-4 first, with its own deal; then Vera attends Northwind's
      // mtg-copy-4, which is not written yet: her row takes no deal from Globex's meeting.
      await s.store.db.insertInto('meetings').values({ ...meeting('mtg-copy-4', theirDeal), org_id: gia.orgId, owner_id: gia.userId }).execute();
      await s.store.db.insertInto('participants').values(attendee('mtg-copy-4', 1)).execute();
      assert.equal(await drift(s.store), 0);
      assert.deepEqual(await dealsOf(s.store, vera), before);
      // Northwind's mtg-copy-4 then gives her its deal, and Globex deleting theirs takes nothing from her.
      await s.store.db.insertInto('meetings').values(meeting('mtg-copy-4', dealB)).execute();
      await s.store.db.deleteFrom('meetings').where('org_id', '=', gia.orgId).where('id', '=', 'mtg-copy-4').execute();
      assert.equal(await drift(s.store), 0);
      assert.deepEqual(await dealsOf(s.store, vera), [...new Set([...before, dealB])].sort());
    });

    it("refuses to change a meeting's keys in place, which the copies could not follow", async () => {
      const before = await dealsOf(s.store, vera);
      const gia = await s.principal(EMAILS.gia);
      for (const set of [{ id: 'mtg-copy-moved' }, { org_id: gia.orgId }]) {
        await assert.rejects(
          s.store.db.updateTable('meetings').set(set).where('org_id', '=', orgId).where('id', '=', 'mtg-copy-3').execute(),
          /meetings keep their org_id and id/,
          JSON.stringify(set),
        );
      }
      // Other columns of the same meeting still change, keys written unchanged included (as an upsert may).
      await s.store.db.updateTable('meetings').set({ title: 'Renamed', id: 'mtg-copy-3', org_id: orgId }).where('org_id', '=', orgId).where('id', '=', 'mtg-copy-3').execute();
      assert.deepEqual(await dealsOf(s.store, vera), before);
      assert.equal(await drift(s.store), 0);
    });

    // SQLite only: PostgreSQL plans by cost (a table of a few hundred rows may be read whole).
    if (dialect === 'sqlite') it("reads her attended meetings' deals from the attendance index alone, no meeting", async () => {
      const q = countQuery(s.store.db, vera, {}).compile();
      const plan = (await s.store.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` })).rows.map((r) => r.detail);
      assert.ok(plan.some((line) => /^SEARCH pa USING COVERING INDEX participants_email_deal \(org_id=\? AND email=\?/.test(line)), plan.join('\n'));
      assert.ok(!plan.some((line) => /meetings|\bma\b/.test(line)), plan.join('\n'));
    });

    // Migration 0019 (SQLite only): a count by status reads each deal of the set from an index, not
    // its row, when the set is small beside the organization's deals (with statistics, as after an import).
    if (dialect === 'sqlite') it('counts her open deals from the deals index alone', async () => {
      const account = (await s.store.db.selectFrom('accounts').select('id').where('org_id', '=', orgId).executeTakeFirstOrThrow()).id;
      const many = Array.from({ length: 2000 }, (_, i) => ({
        org_id: orgId, id: `deal_many_${i}`, account_id: account, name: `Many ${i}`, owner_id: adminId, team_id: null, stage: 'discovery', status: 'open' as const, amount: 1000, currency: 'USD',
        close_date: '2026-12-01', crm_system: 'none' as const, crm_opportunity_id: null, crm_url: null, crm_custom_fields: '{}', created_at: ANCHOR, updated_at: ANCHOR,
      }));
      for (let i = 0; i < many.length; i += 200) await s.store.db.insertInto('deals').values(many.slice(i, i + 200)).execute();
      await sql`analyze`.execute(s.store.db);
      const q = countQuery(s.store.db, vera, { status: 'open' }).compile();
      const plan = (await s.store.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` })).rows.map((r) => r.detail);
      assert.ok(plan.includes('SEARCH d USING COVERING INDEX deals_id_status (org_id=? AND id=? AND status=?)'), plan.join('\n'));
      assert.equal(await countDeals(s.store.db, vera, { status: 'open' }), (await listDeals(s.store.db, vera, { status: 'open' }, 'close_date_asc', null, 100)).length);
    });
  });
}

for (const dialect of dialectsUnderTest()) {
  describe(`migration 0018 on an existing database (${dialect})`, () => {
    let database: TestDatabase;
    let store: Store;
    before(async () => {
      database = await createTestDatabase(dialect);
      store = openStore(database.config);
      await migrateTo(store, '0017-meeting-text-owners');
      await seedDemo(store, { meetings: 60, anchor: ANCHOR, documents: 0 });
    });
    after(async () => {
      await store?.close();
      await database?.drop();
    });

    /** The viewer's, the member's and the manager's deals, each against the policy read from the raw tables. */
    async function checkDeals(): Promise<void> {
      const org = (await findOrganizationByDomain(store.db, 'northwind.example'))!;
      const world = await loadWorld({ store } as Seeded, org.id);
      for (const email of [EMAILS.vic, EMAILS.mia, EMAILS.max]) {
        const user = (await findUserByEmail(store.db, org.id, email))!;
        const r = await principalFromAuth(store.db, { userId: user.id, orgId: org.id });
        assert.ok(r.ok);
        const want = world.deals.filter((d) => dealVisibleTo(world, r.principal, d)).map((d) => d.id).sort();
        assert.ok(want.length > 0, `${email} sees deals`);
        assert.deepEqual(await dealsOf(store, r.principal), want, email);
      }
    }

    it('fills every participant with its meeting deal, and each role sees the deals the policy gives', async () => {
      const linked = await sql<{ n: number | string }>`select count(*) as n from participants p join meetings m on m.org_id = p.org_id and m.id = p.meeting_id where m.deal_id is not null`.execute(store.db);
      assert.ok(Number(linked.rows[0]!.n) > 20, 'participants of meetings with a deal are there before the upgrade');
      await migrateToLatest(store);
      assert.equal(await drift(store), 0);
      await checkDeals();
    });

    it('rolls back to 0017 and applies again', async () => {
      await migrateTo(store, '0017-meeting-text-owners');
      const column = await sql`select deal_id from participants limit 1`.execute(store.db).then(() => true, () => false);
      assert.equal(column, false, 'the column is gone');
      // 0017's triggers are back: a meeting and its participant are written, the start copied, and keys may change again.
      const org = (await findOrganizationByDomain(store.db, 'northwind.example'))!;
      const owner = (await findUserByEmail(store.db, org.id, EMAILS.mia))!;
      const at = ANCHOR - 5 * DAY;
      await sql`insert into meetings (org_id, id, title, start_at, end_at, status, owner_id, meeting_type, language, key_points, next_steps, has_transcript, segment_count, transcript_chars, created_at)
        values (${org.id}, 'mtg-after-down', 'After the rollback', ${at}, ${at + 1_800_000}, 'completed', ${owner.id}, 'external', 'en', '[]', '[]', 0, 0, 0, ${at})`.execute(store.db);
      await sql`insert into participants (org_id, meeting_id, id, email, name, side, talk_time_ms) values (${org.id}, 'mtg-after-down', 1, ${EMAILS.vic}, 'Vic', 'seller', 0)`.execute(store.db);
      const copied = await sql<{ start_at: number | string }>`select start_at from participants where org_id = ${org.id} and meeting_id = 'mtg-after-down'`.execute(store.db);
      assert.equal(Number(copied.rows[0]?.start_at), at);
      await sql`update meetings set id = 'mtg-after-down-2' where org_id = ${org.id} and id = 'mtg-after-down'`.execute(store.db);
      await sql`delete from participants where org_id = ${org.id} and meeting_id = 'mtg-after-down'`.execute(store.db);
      await sql`delete from meetings where org_id = ${org.id} and id = 'mtg-after-down-2'`.execute(store.db);
      await migrateToLatest(store);
      assert.equal(await drift(store), 0);
      await checkDeals();
    });
  });
}
