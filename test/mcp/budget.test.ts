// Every tool, called with its widest arguments by the role that sees the most, stays under
// 20,000 tokens (characters / 4) in its text block and in its structured content.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { dialectsUnderTest } from '../support/databases.ts';
import { EMAILS, ok, seededStore, type Seeded } from './support.ts';
import { tools } from '../../src/mcp/tools/index.ts';

const MAX_TOKENS = 20_000;

/** The largest value a tool accepts for a numeric argument, from its own input schema. */
function maxOf(tool: string, field: string): number {
  const schema = z.toJSONSchema(tools.find((t) => t.name === tool)!.inputSchema, { io: 'input' }) as { properties: Record<string, { maximum?: number }> };
  const max = schema.properties[field]?.maximum;
  assert.ok(typeof max === 'number', `${tool}.${field} has a maximum`);
  return max;
}
const tokens = (chars: number) => Math.ceil(chars / 4);

for (const dialect of dialectsUnderTest()) {
  describe(`result size budgets (${dialect})`, () => {
    let s: Seeded;
    let widest: Record<string, Record<string, unknown>>;
    before(async () => {
      s = await seededStore(dialect, 600);
      const db = s.store.db;
      const ada = await s.principal(EMAILS.ada);
      const twoHour = await db.selectFrom('meetings').select('id').where('org_id', '=', ada.orgId).where('title', 'like', '%2 hours%').executeTakeFirstOrThrow();
      const scorecard = await db.selectFrom('agents').select('id').where('org_id', '=', ada.orgId).where('name', '=', 'Call Scorecard').executeTakeFirstOrThrow();
      const recorded = await db.selectFrom('meetings').select('id').where('org_id', '=', ada.orgId).where('has_transcript', '=', 1).orderBy('segment_count', 'desc').limit(20).execute();
      const busiest = await db.selectFrom('meetings').select(['deal_id', (eb) => eb.fn.countAll<number>().as('n')]).where('org_id', '=', ada.orgId).where('deal_id', 'is not', null).groupBy('deal_id').orderBy('n', 'desc').limit(1).executeTakeFirstOrThrow();
      const qbr = await db.selectFrom('reports').select('id').where('org_id', '=', ada.orgId).where('type', '=', 'custom').executeTakeFirstOrThrow();
      widest = {
        list_meetings: { start: '2025-11-18', end: '2026-11-18', limit: 100 },
        get_meeting: { meeting_id: twoHour.id, include: ['notes', 'next_steps', 'participants', 'previous_meeting_notes', 'agent_results_available'] },
        get_meeting_transcript: { meeting_id: twoHour.id, max_chars: maxOf('get_meeting_transcript', 'max_chars') },
        ask_documents: { question: 'pricing discount approval security objection competitor playbook', mode: 'passages', top_k: 10, max_chars: maxOf('ask_documents', 'max_chars') },
        list_agents: { limit: 100 },
        agent_results: { template_id: scorecard.id, meeting_ids: recorded.map((r) => r.id), include_evidence: true },
        get_qualification_results: { deal_id: busiest.deal_id, include_evidence: true, include_history: true },
        get_deals: { status: 'all', limit: 100 },
        get_deal: { deal_id: busiest.deal_id, meetings_limit: 50 },
        get_teams: { include_members: true },
        list_reports: { limit: 100 },
        read_report: { report_id: qbr.id, max_chars: maxOf('read_report', 'max_chars') },
      };
    });
    after(() => s.cleanup());

    it('covers every tool', () => {
      assert.deepEqual(Object.keys(widest).sort(), tools.map((t) => t.name).sort());
    });

    for (const tool of tools) {
      it(`${tool.name} with its widest arguments stays under ${MAX_TOKENS.toLocaleString('en-US')} tokens`, async () => {
        const result = await s.call(EMAILS.ada, tool.name, widest[tool.name]);
        const structured = ok(tool.name, result);
        const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        assert.ok(tokens(text.length) < MAX_TOKENS, `text block: ${tokens(text.length)} tokens`);
        assert.ok(tokens(JSON.stringify(structured).length) < MAX_TOKENS, `structured content: ${tokens(JSON.stringify(structured).length)} tokens`);
      });
    }
  });
}
