import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, ok, seededStore, type Seeded } from '../support.ts';

type Report = { report_id: string; title: string; type: string; period: { start: string; end: string }; team: { team_id: string } | null; visibility: string; section_count: number; est_tokens: number; generated_by: { name: string } | null };
type Out = { reports: Report[]; next_cursor: string | null; has_more: boolean };

for (const dialect of dialectsUnderTest()) {
  describe(`list_reports (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect);
    });
    after(() => s.cleanup());

    it('lists weekly reports newest first with size estimates and the generating agent', async () => {
      const out = ok<Out>('list_reports', await s.call(EMAILS.max, 'list_reports', { type: 'weekly' }));
      assert.ok(out.reports.length > 0);
      const ends = out.reports.map((r) => r.period.end);
      assert.deepEqual(ends, [...ends].sort().reverse());
      assert.ok(out.reports.every((r) => r.type === 'weekly' && r.est_tokens > 0 && r.section_count > 0));
      assert.ok(out.reports.some((r) => r.generated_by?.name === 'Weekly Pipeline Report'));
    });

    it('pages without repeats and filters by team, period and text', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Out = ok<Out>('list_reports', await s.call(EMAILS.ada, 'list_reports', { limit: 10, ...(cursor ? { cursor } : {}) }));
        seen.push(...page.reports.map((r) => r.report_id));
        cursor = page.next_cursor;
      } while (cursor);
      assert.equal(new Set(seen).size, seen.length);
      const team = ok<Out>('list_reports', await s.call(EMAILS.max, 'list_reports', { q: 'Enterprise East', period_start: '2026-10-01', period_end: '2026-10-31' }));
      assert.ok(team.reports.length > 0);
      assert.ok(team.reports.every((r) => r.title.includes('Enterprise East') && r.period.end >= '2026-10-01' && r.period.start <= '2026-10-31'));
    });

    it('shows a member their own private report but not a teammate\'s', async () => {
      const mia = ok<Out>('list_reports', await s.call(EMAILS.mia, 'list_reports', { type: 'deal' }));
      assert.deepEqual(mia.reports.map((r) => r.title), ['Private deal notes — Mia Member']);
      const max = ok<Out>('list_reports', await s.call(EMAILS.max, 'list_reports', { type: 'deal' }));
      assert.equal(max.reports.length, 0);
    });

    it('names the generating agent only to callers who may see that agent', async () => {
      // An organization-wide report written by Mia's personal agent: Max sees the report, not the agent.
      const mia = await s.principal(EMAILS.mia);
      const personal = ok<{ agents: { template_id: string; name: string; visibility: string }[] }>('list_agents', await s.call(EMAILS.mia, 'list_agents')).agents.find((a) => a.visibility === 'personal')!;
      await s.store.db
        .insertInto('reports')
        .values({ org_id: mia.orgId, id: 'rpt_by_personal_agent', title: 'Discovery checklist roll-up', type: 'custom', period_start: '2026-11-01', period_end: '2026-11-14', generated_at: Date.UTC(2026, 10, 15), agent_id: personal.template_id, team_id: null, owner_id: mia.userId, visibility: 'org', section_count: 0, total_chars: 0 })
        .execute();
      const args = { q: 'Discovery checklist roll-up' };
      const [forMax] = ok<Out>('list_reports', await s.call(EMAILS.max, 'list_reports', args)).reports;
      assert.equal(forMax?.report_id, 'rpt_by_personal_agent');
      assert.equal(forMax.generated_by, null);
      const [forMia] = ok<Out>('list_reports', await s.call(EMAILS.mia, 'list_reports', args)).reports;
      assert.equal(forMia?.generated_by?.name, personal.name);
    });
  });
}
