// Qualification as get_qualification_results, get_deal and get_deals show it: one choice of the
// default agent (tools.md: "the organization's primary qualification agent; if ambiguous, a tool
// error that lists the candidates") and one way to compute the percent.
import type { ToolContext } from '../define-tool.ts';
import type { AgentsTable } from '../../store/sales/schema.ts';
import { visibleQualificationAgents } from '../../store/sales/agents.ts';
import { percentOf } from '../format/common.ts';

export type QualificationChoice = { kind: 'chosen'; agent: AgentsTable } | { kind: 'none' } | { kind: 'ambiguous'; candidates: AgentsTable[] };

const LISTED_CANDIDATES = 10;

/** Among the visible deal-scope qualification agents: the single primary one, else the only one; never a guess. */
function chooseQualificationAgent(candidates: AgentsTable[]): QualificationChoice {
  const primary = candidates.filter((a) => a.is_primary === 1);
  if (primary.length === 1) return { kind: 'chosen', agent: primary[0]! };
  if (candidates.length === 1) return { kind: 'chosen', agent: candidates[0]! };
  return candidates.length === 0 ? { kind: 'none' } : { kind: 'ambiguous', candidates };
}

/** The caller's default qualification agent. */
export async function defaultQualificationAgent(ctx: ToolContext): Promise<QualificationChoice> {
  return chooseQualificationAgent(await visibleQualificationAgents(ctx.store.db, ctx.principal));
}

/** "MEDDPICC Qualification (agt_…), BANT Qualification (agt_…)", bounded. */
export function candidateList(candidates: AgentsTable[]): string {
  const listed = candidates.slice(0, LISTED_CANDIDATES).map((a) => `${a.name} (${a.id})`);
  const more = candidates.length - listed.length;
  return more > 0 ? `${listed.join(', ')} and ${more} more (list_agents with category "qualification")` : listed.join(', ');
}

/** Why there is no default, in the words of get_qualification_results' error and of the others' note. */
export const AMBIGUOUS = 'several qualification agents are visible to you and no single one is primary';

/** Why a tool shows no qualification figure when the default agent is ambiguous, and what to call instead. */
export function ambiguityNote(candidates: AgentsTable[], what: string): string {
  return `${what} is null: ${AMBIGUOUS} (${candidateList(candidates)}). Call get_qualification_results with a deal_id and one of these as template_id.`;
}

/** Scores summed over the dimensions, and their percent of the maximum (one decimal; null when nothing is scorable). */
export function qualificationTotals(dimensions: { score: number; max_score: number }[]): { total: number; max: number; percent: number | null } {
  const total = dimensions.reduce((s, d) => s + d.score, 0);
  const max = dimensions.reduce((s, d) => s + d.max_score, 0);
  return { total, max, percent: percentOf(total, max) };
}
