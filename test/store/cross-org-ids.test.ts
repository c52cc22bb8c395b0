// Tenant isolation where ids collide: an import keys meetings and deals by (org_id, id), so another
// organization may hold the very ids Northwind uses, with Northwind's people's emails among its
// participants. Every read of the attended set, the arms and the deals linked to visible meetings
// must stay in the caller's organization: each Northwind user sees exactly what the policy computed
// from Northwind's own rows allows, and never a Globex copy. (The demo seed has no such collision,
// so the other isolation tests cannot tell a subquery that forgot its org_id.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { ANCHOR, EMAILS, type Seeded } from '../mcp/support.ts';
import type { Principal } from '../../src/access/principal.ts';
import { findVisibleMeeting, findVisibleMeetingDetail, listMeetings, type MeetingFilters } from '../../src/store/sales/meetings.ts';
import { countDeals, findVisibleDeal, listDeals } from '../../src/store/sales/deals.ts';
import { firstDealsPage } from '../../src/store/sales/deal-first-page.ts';
import { attends, dealVisibleTo, meetingVisibleTo, seededWorld, type Cast, type World } from './policy-oracle.ts';

const DAY = 86_400_000;
const COPY = 'Globex copy';

/**
 * Globex copies of every recent Northwind meeting id and every Northwind deal id, owned by a Globex
 * member, each meeting linked to a copied deal, and attended (in Globex) by every Northwind user's
 * email. Returns the copied ids.
 */
async function copyIdsIntoGlobex(s: Seeded, c: Cast): Promise<{ meetingIds: string[]; dealIds: string[] }> {
  const db = s.store.db;
  const gus = await s.principal(EMAILS.gus);
  const orgId = gus.orgId;
  const meetingIds = (await db.selectFrom('meetings').select('id').where('org_id', '=', c.ada.orgId).where('start_at', '>=', ANCHOR - 300 * DAY).orderBy('id').execute()).map((r) => r.id);
  const dealIds = (await db.selectFrom('deals').select('id').where('org_id', '=', c.ada.orgId).orderBy('id').execute()).map((r) => r.id);
  const account = (await db.selectFrom('accounts').select('id').where('org_id', '=', orgId).executeTakeFirstOrThrow()).id;
  const deal = (id: string) => ({
    org_id: orgId, id, account_id: account, name: `${COPY} ${id}`, owner_id: gus.userId, team_id: null, stage: 'discovery', status: 'open' as const, amount: 1, currency: 'USD',
    close_date: '2026-12-01', crm_system: 'none' as const, crm_opportunity_id: null, crm_url: null, crm_custom_fields: '{}', created_at: ANCHOR, updated_at: ANCHOR,
  });
  const meeting = (id: string, i: number) => ({
    org_id: orgId, id, title: `${COPY} ${id}`, start_at: ANCHOR - (i % 200) * DAY, end_at: ANCHOR, status: 'completed' as const, owner_id: gus.userId, team_id: null,
    deal_id: dealIds[i % dealIds.length]!, account_id: account, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]',
    has_transcript: 1, transcript_reason: null, segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
  });
  for (let i = 0; i < dealIds.length; i += 100) await db.insertInto('deals').values(dealIds.slice(i, i + 100).map(deal)).execute();
  for (let i = 0; i < meetingIds.length; i += 100) await db.insertInto('meetings').values(meetingIds.slice(i, i + 100).map((id, k) => meeting(id, i + k))).execute();
  const emails = (await db.selectFrom('users').select('email').where('org_id', '=', c.ada.orgId).orderBy('email').execute()).map((u) => u.email);
  const people = meetingIds.flatMap((meetingId) =>
    emails.map((email, k) => ({ org_id: orgId, meeting_id: meetingId, id: 5000 + k, email, name: `Guest ${k}`, user_id: null, side: 'buyer' as const, company: null, title: null, talk_time_ms: 0 })),
  );
  for (let i = 0; i < people.length; i += 500) await db.insertInto('participants').values(people.slice(i, i + 500)).execute();
  return { meetingIds, dealIds };
}

for (const dialect of dialectsUnderTest()) {
  describe(`colliding ids across organizations (${dialect})`, () => {
    let s: Seeded;
    let world: World;
    let principals: Principal[];
    let copied: { meetingIds: string[]; dealIds: string[] };
    before(async () => {
      ({ s, world, principals } = await seededWorld(dialect, async (s, c) => {
        copied = await copyIdsIntoGlobex(s, c);
      }));
    });
    after(() => s.cleanup());

    const whole = { from: ANCHOR - 400 * DAY, to: ANCHOR + 60 * DAY };

    it('copies over a hundred meeting ids and every deal id', () => {
      assert.ok(copied.meetingIds.length > 100 && copied.dealIds.length > 20, `${copied.meetingIds.length} meetings, ${copied.dealIds.length} deals`);
      assert.ok(principals.some((p) => p.role === 'viewer') && principals.some((p) => p.role === 'member'));
    });

    it("lists each user's own organization's meetings only, read by arms or by the predicate", async () => {
      const nonEmpty = [0, 0];
      for (const p of principals) {
        const want = world.meetings
          .filter((m) => meetingVisibleTo(world, p, m) && m.start_at >= whole.from && m.start_at < whole.to)
          .sort((a, b) => b.start_at - a.start_at || (a.id < b.id ? 1 : -1))
          .map((m) => m.id);
        const { rows, total } = await listMeetings(s.store.db, p, whole, 'desc', null, 5000, 5000);
        assert.deepEqual(rows.map((r) => r.id), want, p.email);
        assert.equal(total, want.length, p.email);
        assert.ok(!rows.some((r) => r.title.startsWith(COPY)), p.email);
        // A filter on the meeting (members and viewers: the arms joined to their meetings) and one
        // with its own index (the policy's predicate, with the email's attendance set).
        const filtered: [MeetingFilters, string[]][] = [
          [{ ...whole, hasTranscript: true }, want.filter((id) => world.meetings.find((m) => m.id === id)!.has_transcript === 1)],
          [{ ...whole, participantEmails: [p.email] }, want.filter((id) => attends(world, id, p.email) > 0)],
        ];
        for (const [i, [f, expected]] of filtered.entries()) {
          if (expected.length > 0) nonEmpty[i]! += 1;
          const page = await listMeetings(s.store.db, p, f, 'desc', null, 5000, 5000);
          assert.deepEqual(page.rows.map((r) => r.id), expected, `${p.email} ${JSON.stringify(f)}`);
          assert.equal(page.total, expected.length, `${p.email} ${JSON.stringify(f)}`);
        }
      }
      assert.ok(nonEmpty.every((n) => n >= 3), `users with meetings under each filter: ${nonEmpty.join(', ')}`);
    });

    it("finds one meeting, and whether the caller attended it, in the caller's organization only", async () => {
      for (const p of principals) {
        for (const id of copied.meetingIds.slice(0, 60)) {
          const m = world.meetings.find((x) => x.id === id)!;
          const one = await findVisibleMeeting(s.store.db, p, id);
          assert.equal(one !== undefined, meetingVisibleTo(world, p, m), `${p.email} ${id}`);
          assert.ok(!one?.meeting.title.startsWith(COPY));
          const detail = await findVisibleMeetingDetail(s.store.db, p, id);
          assert.equal(detail !== undefined, one !== undefined, `${p.email} ${id}`);
          if (detail) assert.equal(detail.attended, attends(world, id, p.email) > 0 ? 1 : 0, `${p.email} ${id}`);
        }
      }
    });

    it("lists, counts and finds each user's own organization's deals only", async () => {
      let searchers = 0;
      for (const p of principals) {
        const want = world.deals.filter((d) => dealVisibleTo(world, p, d)).map((d) => d.id).sort();
        const listed = await listDeals(s.store.db, p, {}, 'close_date_asc', null, 5000);
        assert.deepEqual(listed.map((d) => d.id).sort(), want, p.email);
        assert.ok(!listed.some((d) => d.name.startsWith(COPY)), p.email);
        assert.equal(await countDeals(s.store.db, p, {}), want.length, p.email);
        // A search's first page (one statement, deal-first-page.ts) reads its deals by their ids after
        // the policy: by the whole key, so no copy of the same id comes with them.
        const searched = await firstDealsPage(s.store.db, p, { search: 'a' }, 'close_date_asc', 5000);
        if (searched.rows.some((d) => copied.dealIds.includes(d.id))) searchers++;
        assert.deepEqual(searched.rows, await listDeals(s.store.db, p, { search: 'a' }, 'close_date_asc', null, 5000), p.email);
        assert.equal(await searched.total(), searched.rows.length, p.email);
        for (const id of copied.dealIds.slice(0, 40)) {
          const d = await findVisibleDeal(s.store.db, p, id);
          assert.equal(d !== undefined, want.includes(id), `${p.email} ${id}`);
          assert.ok(!d?.name.startsWith(COPY));
        }
      }
      assert.ok(searchers >= 3, `users whose search finds deals whose ids Globex copied: ${searchers}`);
    });
  });
}
