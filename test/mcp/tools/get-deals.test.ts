import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { ANCHOR, EMAILS, errorCode, ok, seededStore, withoutPrimaryQualification, type Seeded } from '../support.ts';

type Deal = { deal_id: string; name: string; status: string; stage: string; amount: number; close_date: string; owner: { email: string | null }; crm_linked: boolean; crm_url: string | null; meeting_count: number; next_meeting: { start: string } | null; qualification_percent: number | null; url: string };
type Out = { deals: Deal[]; next_cursor: string | null; has_more: boolean; total: number | null; qualification_note: string | null };
type Agents = { agents: { template_id: string; is_primary_qualification: boolean }[] };
type Qualification = { framework: { template_id: string }; percent: number };

for (const dialect of dialectsUnderTest()) {
  describe(`get_deals (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect);
    });
    after(() => s.cleanup());

    it('lists open deals by close date with links and meeting facts', async () => {
      const out = ok<Out>('get_deals', await s.call(EMAILS.ada, 'get_deals'));
      assert.ok(out.deals.length > 0);
      assert.ok(out.deals.every((d) => d.status === 'open'));
      const dates = out.deals.map((d) => d.close_date);
      assert.deepEqual(dates, [...dates].sort());
      for (const d of out.deals) {
        assert.ok(d.url.startsWith('https://app.example.com/deals/'));
        assert.equal(d.crm_linked, d.crm_url !== null);
      }
    });

    it('pages by amount without repeats and counts the total', async () => {
      const args = { status: 'all', sort: 'amount_desc', limit: 9 };
      const first = ok<Out>('get_deals', await s.call(EMAILS.ada, 'get_deals', args));
      const ids = first.deals.map((d) => d.deal_id);
      const amounts = first.deals.map((d) => d.amount);
      let cursor = first.next_cursor;
      while (cursor) {
        const page = ok<Out>('get_deals', await s.call(EMAILS.ada, 'get_deals', { ...args, cursor }));
        ids.push(...page.deals.map((d) => d.deal_id));
        amounts.push(...page.deals.map((d) => d.amount));
        cursor = page.next_cursor;
      }
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(ids.length, first.total);
      assert.deepEqual(amounts, [...amounts].sort((a, b) => b - a));
    });

    it('filters by owner, search, stage, amount and upcoming meetings', async () => {
      const mine = ok<Out>('get_deals', await s.call(EMAILS.mia, 'get_deals', { owner: 'me', status: 'all' }));
      assert.ok(mine.deals.length >= 3 && mine.deals.every((d) => d.owner.email === EMAILS.mia));
      const word = mine.deals[0]!.name.split(' ')[0]!;
      const search = ok<Out>('get_deals', await s.call(EMAILS.ada, 'get_deals', { search: word.toUpperCase(), status: 'all' }));
      assert.ok(search.deals.some((d) => d.deal_id === mine.deals[0]!.deal_id));
      const staged = ok<Out>('get_deals', await s.call(EMAILS.ada, 'get_deals', { stage: ['negotiation'], amount_min: 50_000 }));
      assert.ok(staged.deals.every((d) => d.stage === 'negotiation' && d.amount >= 50_000));
      const upcoming = ok<Out>('get_deals', await s.call(EMAILS.mia, 'get_deals', { has_upcoming_meeting: true }));
      assert.ok(upcoming.deals.length > 0);
      assert.ok(upcoming.deals.every((d) => d.next_meeting !== null && Date.parse(d.next_meeting.start) > ANCHOR));
      assert.equal(errorCode(await s.call(EMAILS.ada, 'get_deals', { owner: 'nobody@northwind.example' })), 'invalid_argument');
    });

    it('reports the qualification percent of the one primary qualification agent, with no note', async () => {
      const primary = ok<Agents>('list_agents', await s.call(EMAILS.ada, 'list_agents', { category: 'qualification' })).agents.filter((a) => a.is_primary_qualification);
      assert.equal(primary.length, 1);
      const out = ok<Out>('get_deals', await s.call(EMAILS.ada, 'get_deals', { status: 'all', limit: 100 }));
      assert.equal(out.qualification_note, null);
      const deal = out.deals.find((d) => d.qualification_percent !== null)!;
      assert.ok(deal, 'some deal has a qualification result');
      const q = ok<Qualification>('get_qualification_results', await s.call(EMAILS.ada, 'get_qualification_results', { deal_id: deal.deal_id, template_id: primary[0]!.template_id }));
      assert.equal(deal.qualification_percent, q.percent);
    });

    it('reports no qualification percent, and says why, when several qualification agents are visible and none is primary', async () => {
      const before = ok<Out>('get_deals', await s.call(EMAILS.gia, 'get_deals', { status: 'all', limit: 100 }));
      const { candidates } = await withoutPrimaryQualification(s, EMAILS.gia);
      const out = ok<Out>('get_deals', await s.call(EMAILS.gia, 'get_deals', { status: 'all', limit: 100 }));
      assert.deepEqual(out.deals.map((d) => d.deal_id), before.deals.map((d) => d.deal_id));
      assert.ok(out.deals.every((d) => d.qualification_percent === null));
      assert.match(out.qualification_note!, /get_qualification_results/);
      for (const id of candidates) assert.ok(out.qualification_note!.includes(id), `the note names ${id}`);
    });
  });
}
