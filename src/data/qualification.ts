// Qualification results per deal and agent (MEDDPICC, BANT), computed from the deal's recorded
// calls: later stages score higher; each dimension has a status, a summary, evidence and gaps.
import type { Rng } from './prng.ts';
import type { OrgPlan } from './plan.ts';
import { DIMENSION_TEXT } from './agents.ts';
import type { AgentRef, DealCall } from './meetings.ts';
import type { BatchWriter } from './writer.ts';

const STAGE_STRENGTH: Record<string, number> = { discovery: 0.3, demo: 0.45, proposal: 0.6, negotiation: 0.75, closed_won: 0.9, closed_lost: 0.35 };
const DAY = 86_400_000;

export function addQualificationResults(rng: Rng, plan: OrgPlan, writer: BatchWriter, agents: AgentRef[], dealCalls: Map<string, DealCall[]>): void {
  const qualifiers = agents.filter((a) => a.key === 'meddpicc' || a.key === 'bant');
  for (const deal of plan.deals) {
    const calls = dealCalls.get(deal.id);
    if (!calls || calls.length === 0) continue;
    const strength = STAGE_STRENGTH[deal.stage] ?? 0.5;
    const last = calls[calls.length - 1]!;
    for (const agent of qualifiers) {
      const dimensions = agent.properties.map((prop) => {
        const max = prop.max_score ?? 10;
        const score = Math.max(0, Math.min(max, Math.round(max * (strength + (rng.next() - 0.5) * 0.5))));
        const status = score >= max * 0.7 ? 'strong' : score >= max * 0.4 ? 'partial' : 'missing';
        const text = DIMENSION_TEXT[prop.key];
        const call = rng.pick(calls);
        return {
          key: prop.key,
          title: prop.title,
          score,
          max_score: max,
          status,
          summary: text ? text[status] : `${prop.title}: ${status}`,
          evidence: status === 'missing' ? [] : call.quotes.slice(0, 2).map((q) => ({ ...q, meeting_id: call.meetingId })),
          gaps: status === 'strong' || !text ? [] : [text.gap],
        };
      });
      const total = dimensions.reduce((s, d) => s + d.score, 0);
      const max = dimensions.reduce((s, d) => s + d.max_score, 0);
      const history = [3, 2, 1].map((weeksAgo) => ({
        updated_at: new Date(last.startAt - weeksAgo * 7 * DAY).toISOString(),
        total_percent: Math.max(0, Math.round((total / max) * 100) - weeksAgo * rng.int(2, 6)),
      }));
      writer.add('qualification_results', {
        org_id: plan.orgId,
        deal_id: deal.id,
        agent_id: agent.id,
        dimensions: JSON.stringify(dimensions),
        meeting_ids: JSON.stringify(calls.map((c) => c.meetingId)),
        history: JSON.stringify(history),
        updated_at: last.startAt + 3_600_000,
      });
    }
  }
}
