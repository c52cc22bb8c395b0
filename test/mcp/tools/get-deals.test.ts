import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { ANCHOR, EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';

type Deal = { deal_id: string; name: string; status: string; stage: string; amount: number; close_date: string; owner: { email: string | null }; crm_linked: boolean; crm_url: string | null; meeting_count: number; next_meeting: { start: string } | null; url: string };
type Out = { deals: Deal[]; next_cursor: string | null; has_more: boolean; total: number | null };

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
  });
}
