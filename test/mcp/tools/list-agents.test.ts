import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';
import { encodeCursor } from '../../../src/mcp/cursor.ts';

/** The key test/mcp/support.ts signs cursors with. */
const CURSOR_KEY = 'test-cursor-key-0123456789abcdef';

type Agent = { template_id: string; name: string; category: string; methodology: string | null; scope: string; read_with: string; visibility: string; properties: { key: string; max_score: number | null }[]; max_total_score: number | null };
type Out = { agents: Agent[]; next_cursor: string | null; has_more: boolean };

for (const dialect of dialectsUnderTest()) {
  describe(`list_agents (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect);
    });
    after(() => s.cleanup());

    it('lists MEDDPICC, BANT and the call scorecard with ordered properties and max totals', async () => {
      const out = ok<Out>('list_agents', await s.call(EMAILS.mia, 'list_agents'));
      const meddpicc = out.agents.find((a) => a.methodology === 'MEDDPICC')!;
      assert.equal(meddpicc.scope, 'deal');
      assert.equal(meddpicc.read_with, 'get_qualification_results');
      assert.deepEqual(meddpicc.properties.map((p) => p.key), ['metrics', 'economic_buyer', 'decision_criteria', 'decision_process', 'paper_process', 'identify_pain', 'champion', 'competition']);
      assert.equal(meddpicc.max_total_score, 80);
      const scorecard = out.agents.find((a) => a.name === 'Call Scorecard')!;
      assert.equal(scorecard.read_with, 'agent_results');
      assert.ok(out.agents.some((a) => a.methodology === 'BANT'));
    });

    it('shows team and personal agents only to their team and owner', async () => {
      const mia = ok<Out>('list_agents', await s.call(EMAILS.mia, 'list_agents'));
      assert.ok(mia.agents.some((a) => a.visibility === 'personal'), 'own personal agent');
      assert.ok(mia.agents.some((a) => a.visibility === 'team'), 'own team agent');
      const max = ok<Out>('list_agents', await s.call(EMAILS.max, 'list_agents'));
      assert.ok(!max.agents.some((a) => a.visibility === 'personal'), 'a teammate\'s personal agent stays private');
    });

    it('shows a team agent to the members of its team and to no one outside it', async () => {
      const teamAgent = ok<Out>('list_agents', await s.call(EMAILS.mia, 'list_agents', { limit: 100 })).agents.find((a) => a.visibility === 'team');
      assert.ok(teamAgent, 'Mia sees her team\'s agent');
      const teams = ok<{ teams: { name: string; members: { email: string }[] | null }[] }>('get_teams', await s.call(EMAILS.ada, 'get_teams')).teams;
      const east = teams.find((t) => t.name === 'Enterprise East')?.members?.map((m) => m.email) ?? [];
      const west = teams.find((t) => t.name === 'Enterprise West')?.members?.map((m) => m.email) ?? [];
      const outsider = west.find((email) => !east.includes(email));
      assert.ok(outsider, 'a member of another team');
      const sees = async (email: string) => ok<Out>('list_agents', await s.call(email, 'list_agents', { limit: 100 })).agents.some((a) => a.template_id === teamAgent.template_id);
      for (const member of [EMAILS.max, EMAILS.vic]) {
        assert.ok(east.includes(member));
        assert.equal(await sees(member), true, `${member} belongs to the team`);
      }
      // domain.md: agents are org-visible + the teams the user belongs to + own personal, for every role.
      for (const email of [outsider, EMAILS.ada]) assert.equal(await sees(email), false, `${email} is outside the team`);
    });

    it('filters by category and methodology and pages with a cursor', async () => {
      const q = ok<Out>('list_agents', await s.call(EMAILS.ada, 'list_agents', { category: 'qualification', methodology: 'bant' }));
      assert.deepEqual(q.agents.map((a) => a.methodology), ['BANT']);
      const first = ok<Out>('list_agents', await s.call(EMAILS.ada, 'list_agents', { limit: 2 }));
      assert.equal(first.has_more, true);
      const second = ok<Out>('list_agents', await s.call(EMAILS.ada, 'list_agents', { limit: 2, cursor: first.next_cursor }));
      assert.ok(!second.agents.some((a) => first.agents.some((b) => b.template_id === a.template_id)));
      assert.equal(errorCode(await s.call(EMAILS.ada, 'list_agents', { category: 'astrology' })), 'invalid_argument');
    });

    it('refuses a correctly signed cursor whose position is not (name, id)', async () => {
      const ada = await s.principal(EMAILS.ada);
      const binding = { key: CURSOR_KEY, orgId: ada.orgId, userId: ada.userId, tool: 'list_agents', query: {} };
      const result = await s.call(EMAILS.ada, 'list_agents', { cursor: encodeCursor(binding, [1, 2]) });
      assert.equal(errorCode(result), 'invalid_argument');
      assert.match(result.content[0]!.type === 'text' ? result.content[0]!.text : '', /cursor is malformed.*without "cursor"/);
      const after = ok<Out>('list_agents', await s.call(EMAILS.ada, 'list_agents', { cursor: encodeCursor(binding, ['', '']) }));
      assert.ok(after.agents.length > 0, 'the same binding with a (name, id) position pages on');
    });
  });
}
