import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { ANCHOR, EMAILS, errorCode, ok, seededStore, withoutPrimaryQualification, type Seeded } from '../support.ts';

type Item = { meeting_id: string; start: string; status: string };
type Out = {
  deal: { deal_id: string; crm_linked: boolean };
  crm: { crm_linked: boolean; system: string; opportunity_id: string | null } | null;
  meetings: { items: Item[]; next_cursor: string | null; has_more: boolean } | null;
  upcoming_meetings: Item[] | null;
  stakeholders: { people: { name: string; side: string; meetings_attended: number }[]; total: number } | null;
  qualification_summary: { template_id: string; percent: number } | null;
  qualification_note: string | null;
};
type Deals = { deals: { deal_id: string; meeting_count: number; prospect_org: string; qualification_percent: number | null }[] };
type Agents = { agents: { template_id: string; is_primary_qualification: boolean }[] };

for (const dialect of dialectsUnderTest()) {
  describe(`get_deal (${dialect})`, () => {
    let s: Seeded;
    let dealId: string;
    before(async () => {
      s = await seededStore(dialect);
      const deals = ok<Deals>('get_deals', await s.call(EMAILS.mia, 'get_deals', { owner: 'me', has_upcoming_meeting: true }));
      dealId = deals.deals[0]!.deal_id;
    });
    after(() => s.cleanup());

    it('returns the deal with CRM block, meetings, upcoming meetings, stakeholders and qualification', async () => {
      const out = ok<Out>('get_deal', await s.call(EMAILS.mia, 'get_deal', { deal_id: dealId }));
      assert.equal(out.deal.deal_id, dealId);
      assert.equal(out.crm!.crm_linked, out.deal.crm_linked);
      assert.ok(out.meetings!.items.length > 0);
      assert.ok(out.upcoming_meetings!.length > 0);
      assert.ok(out.stakeholders!.people.some((p) => p.side === 'buyer'));
      assert.ok(out.qualification_summary !== null);
    });

    it('pages completed meetings with meetings_cursor', async () => {
      const first = ok<Out>('get_deal', await s.call(EMAILS.ada, 'get_deal', { deal_id: dealId, include: ['meetings'], meetings_limit: 1 }));
      assert.equal(first.stakeholders, null);
      const ids = first.meetings!.items.map((m) => m.meeting_id);
      let cursor = first.meetings!.next_cursor;
      while (cursor) {
        const page = ok<Out>('get_deal', await s.call(EMAILS.ada, 'get_deal', { deal_id: dealId, include: ['meetings'], meetings_limit: 1, meetings_cursor: cursor }));
        ids.push(...page.meetings!.items.map((m) => m.meeting_id));
        cursor = page.meetings!.next_cursor;
      }
      assert.ok(ids.length >= 2);
      assert.equal(new Set(ids).size, ids.length);
    });

    it('summarizes the qualification of the one primary qualification agent, with no note', async () => {
      const agents = ok<Agents>('list_agents', await s.call(EMAILS.mia, 'list_agents', { category: 'qualification' })).agents;
      assert.ok(agents.length >= 2, 'several qualification agents are visible');
      const primary = agents.filter((a) => a.is_primary_qualification);
      assert.equal(primary.length, 1);
      const out = ok<Out>('get_deal', await s.call(EMAILS.mia, 'get_deal', { deal_id: dealId, include: ['qualification_summary'] }));
      assert.equal(out.qualification_summary!.template_id, primary[0]!.template_id);
      assert.equal(out.qualification_note, null);
    });

    it('shows no qualification summary, and says why, when several qualification agents are visible and none is primary', async () => {
      const { candidates, dealId } = await withoutPrimaryQualification(s, EMAILS.gia);
      const out = ok<Out>('get_deal', await s.call(EMAILS.gia, 'get_deal', { deal_id: dealId, include: ['qualification_summary'] }));
      assert.equal(out.qualification_summary, null);
      assert.match(out.qualification_note!, /get_qualification_results/);
      for (const id of candidates) assert.ok(out.qualification_note!.includes(id), `the note names ${id}`);
    });

    it('answers not_found for an unknown deal', async () => {
      assert.equal(errorCode(await s.call(EMAILS.ada, 'get_deal', { deal_id: 'deal_unknown' })), 'not_found');
    });

    // Last: it adds canceled meetings to the shared seed.
    it('lists only completed meetings: canceled past ones are left out, and paging covers exactly the completed ones', async () => {
      const { orgId } = await s.principal(EMAILS.ada);
      const db = s.store.db;
      // The admin sees every meeting of the organization, so the expected list is plain SQL.
      const completedOf = (deal: string) =>
        db.selectFrom('meetings').selectAll().where('org_id', '=', orgId).where('deal_id', '=', deal).where('status', '=', 'completed').where('start_at', '<=', ANCHOR).orderBy('start_at', 'desc').orderBy('id', 'desc').execute();
      const busiest = await db
        .selectFrom('meetings')
        .select(['deal_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('org_id', '=', orgId)
        .where('deal_id', 'is not', null)
        .where('status', '=', 'completed')
        .where('start_at', '<=', ANCHOR)
        .groupBy('deal_id')
        .orderBy('n', 'desc')
        .orderBy('deal_id')
        .executeTakeFirstOrThrow();
      const deal = busiest.deal_id!;
      const completed = await completedOf(deal);
      assert.ok(completed.length >= 3, `deal ${deal} has several completed meetings`);
      // Canceled past meetings: one after the latest completed one, one between each pair, one tied
      // with a completed one's start time.
      const latest = completed[0]!;
      const times = [Math.min(ANCHOR, latest.start_at + 60_000), latest.start_at];
      for (let i = 0; i + 1 < completed.length; i++) times.push(Math.floor((completed[i]!.start_at + completed[i + 1]!.start_at) / 2));
      for (const [i, startAt] of times.entries()) {
        await db
          .insertInto('meetings')
          .values({ ...latest, id: `${latest.id}_canceled_${i}`, title: 'Canceled follow-up', start_at: startAt, end_at: startAt + 1_800_000, status: 'canceled', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0, transcript_reason: 'canceled', segment_count: 0, transcript_chars: 0 })
          .execute();
      }
      const seen: Item[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const args: Record<string, unknown> = { deal_id: deal, include: ['meetings'], meetings_limit: 2, ...(cursor ? { meetings_cursor: cursor } : {}) };
        const page = ok<Out>('get_deal', await s.call(EMAILS.ada, 'get_deal', args)).meetings!;
        assert.equal(page.has_more, page.next_cursor !== null);
        seen.push(...page.items);
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor && pages < 100);
      assert.deepEqual(seen.map((m) => m.meeting_id), completed.map((m) => m.id), 'exactly the completed meetings, newest first, each once');
      assert.ok(seen.every((m) => m.status === 'completed'));
      assert.equal(pages, Math.ceil(completed.length / 2), 'no empty or extra pages');
    });
  });
}
