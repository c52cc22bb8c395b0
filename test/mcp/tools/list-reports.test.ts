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

    /** Every report `email` gets for `args`, following next_cursor to the end. */
    async function allReports(email: string, args: Record<string, unknown>, limit = 100): Promise<Report[]> {
      const reports: Report[] = [];
      let cursor: string | null = null;
      do {
        const page: Out = ok<Out>('list_reports', await s.call(email, 'list_reports', { ...args, limit, ...(cursor ? { cursor } : {}) }));
        reports.push(...page.reports);
        cursor = page.next_cursor;
      } while (cursor);
      return reports;
    }

    it('pages without repeats and filters by period and title text', async () => {
      const seen = (await allReports(EMAILS.ada, {}, 10)).map((r) => r.report_id);
      assert.ok(seen.length > 10, 'more than one page');
      assert.equal(new Set(seen).size, seen.length);
      const team = ok<Out>('list_reports', await s.call(EMAILS.max, 'list_reports', { q: 'Enterprise East', period_start: '2026-10-01', period_end: '2026-10-31' }));
      assert.ok(team.reports.length > 0);
      assert.ok(team.reports.every((r) => r.title.includes('Enterprise East') && r.period.end >= '2026-10-01' && r.period.start <= '2026-10-31'));
    });

    it('filters by team_id: only that team\'s reports, none of another team the caller also sees', async () => {
      const teams = ok<{ teams: { team_id: string; name: string }[] }>('get_teams', await s.call(EMAILS.max, 'get_teams', { include_members: false })).teams;
      const east = teams.find((t) => t.name === 'Enterprise East')!;
      const strategic = teams.find((t) => t.name === 'Strategic Accounts')!;
      // Unfiltered, the manager of Enterprise East also sees its sub-team's and the organization's reports.
      const all = await allReports(EMAILS.max, {});
      const otherTeams = all.filter((r) => r.team?.team_id === strategic.team_id);
      assert.ok(otherTeams.length > 0, 'a Strategic Accounts report is visible without the filter');
      assert.ok(all.some((r) => r.team === null), 'an organization-wide report is visible without the filter');

      const filtered = await allReports(EMAILS.max, { team_id: east.team_id });
      assert.ok(filtered.length > 0);
      assert.ok(filtered.every((r) => r.team?.team_id === east.team_id), `a report of another team: ${JSON.stringify(filtered.find((r) => r.team?.team_id !== east.team_id))}`);
      const ids = new Set(filtered.map((r) => r.report_id));
      assert.ok(!otherTeams.some((r) => ids.has(r.report_id)), 'a Strategic Accounts report passed the Enterprise East filter');
      // Nothing of the team is dropped: the filter returns exactly the team's visible reports.
      assert.deepEqual([...ids].sort(), all.filter((r) => r.team?.team_id === east.team_id).map((r) => r.report_id).sort());
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
