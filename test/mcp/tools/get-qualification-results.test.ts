import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, withoutPrimaryQualification, type Seeded } from '../support.ts';

type Dim = { key: string; score: number; max_score: number; status: string; summary: string; gaps: string[]; evidence?: unknown[] };
type Out = { deal: { deal_id: string; prospect_org: string }; framework: { name: string; methodology: string | null }; dimensions: Dim[]; total_score: number; max_total_score: number; percent: number; counts: { strong: number; partial: number; missing: number }; meetings: unknown[]; history?: unknown[] };
type Deals = { deals: { deal_id: string; prospect_org: string; qualification_percent: number | null }[] };
type Agents = { agents: { template_id: string; methodology: string | null }[] };

for (const dialect of dialectsUnderTest()) {
  describe(`get_qualification_results (${dialect})`, () => {
    let s: Seeded;
    let deal: Deals['deals'][number];
    before(async () => {
      s = await seededStore(dialect);
      const deals = ok<Deals>('get_deals', await s.call(EMAILS.ada, 'get_deals', { status: 'all', limit: 100 })).deals;
      deal = deals.find((d) => d.qualification_percent !== null)!;
    });
    after(() => s.cleanup());

    it('defaults to the primary framework (MEDDPICC) with every dimension, totals and meetings', async () => {
      const out = ok<Out>('get_qualification_results', await s.call(EMAILS.ada, 'get_qualification_results', { deal_id: deal.deal_id, include_history: true }));
      assert.equal(out.framework.methodology, 'MEDDPICC');
      assert.equal(out.dimensions.length, 8);
      assert.equal(out.total_score, out.dimensions.reduce((sum, d) => sum + d.score, 0));
      assert.equal(out.max_total_score, 80);
      assert.equal(out.counts.strong + out.counts.partial + out.counts.missing, 8);
      assert.equal(out.percent, deal.qualification_percent);
      assert.ok(out.meetings.length > 0);
      assert.ok(out.history && out.history.length > 0);
    });

    it('accepts deal_key and prospect_org + deal_id, and another template_id', async () => {
      const bant = ok<Agents>('list_agents', await s.call(EMAILS.ada, 'list_agents', { methodology: 'BANT' })).agents[0]!.template_id;
      const byKey = ok<Out>('get_qualification_results', await s.call(EMAILS.ada, 'get_qualification_results', { deal_key: deal.deal_id, template_id: bant, include_evidence: false }));
      assert.equal(byKey.framework.methodology, 'BANT');
      assert.equal(byKey.dimensions.length, 4);
      assert.ok(byKey.dimensions.every((d) => d.evidence === undefined));
      const byOrg = ok<Out>('get_qualification_results', await s.call(EMAILS.ada, 'get_qualification_results', { prospect_org: deal.prospect_org, deal_id: deal.deal_id }));
      assert.equal(byOrg.deal.deal_id, deal.deal_id);
    });

    it('refuses to guess, listing the candidates, when several qualification agents are visible and none is primary', async () => {
      const { candidates, dealId } = await withoutPrimaryQualification(s, EMAILS.gia);
      const result = await s.call(EMAILS.gia, 'get_qualification_results', { deal_id: dealId });
      assert.equal(errorCode(result), 'invalid_argument');
      const text = result.content[0]!.type === 'text' ? result.content[0]!.text : '';
      for (const id of candidates) assert.ok(text.includes(id), `the error names ${id}`);
      ok<Out>('get_qualification_results', await s.call(EMAILS.gia, 'get_qualification_results', { deal_id: dealId, template_id: candidates[0] }));
    });

    it('answers not_found for an unknown deal and invalid_argument without one', async () => {
      assert.equal(errorCode(await s.call(EMAILS.ada, 'get_qualification_results', { deal_id: 'deal_nope' })), 'not_found');
      assert.equal(errorCode(await s.call(EMAILS.ada, 'get_qualification_results', {})), 'invalid_argument');
    });
  });
}
