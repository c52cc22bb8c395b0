// Agents (templates), their per-meeting results and per-deal qualification results, read under
// the access policy: agents by visibility, results only for meetings/deals the caller can see.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { AgentResultsTable, AgentsTable, QualificationResultsTable } from './schema.ts';
import type { Principal } from '../../access/principal.ts';
import { agentVisible } from '../../access/visibility.ts';
import { ilike } from './like.ts';
import { afterPosition } from './keyset.ts';

export type AgentFilters = { category?: string; methodology?: string; q?: string };

export async function listAgents(db: Kysely<Database>, p: Principal, f: AgentFilters, after: [string, string] | null, limit: number): Promise<AgentsTable[]> {
  let q = db.selectFrom('agents as a').selectAll('a').where('a.org_id', '=', p.orgId).where(agentVisible(p, 'a'));
  if (f.category) q = q.where('a.category', '=', f.category as AgentsTable['category']);
  if (f.methodology) q = q.where((eb) => eb(eb.fn('lower', ['a.methodology']), '=', f.methodology!.toLowerCase()));
  if (f.q) q = q.where((eb) => eb.or([ilike(db, 'a.name', f.q!), ilike(db, 'a.description', f.q!)]));
  if (after) q = q.where(afterPosition('a.name', 'a.id', 'asc', after));
  return q.orderBy('a.name').orderBy('a.id').limit(limit).execute();
}

export async function findVisibleAgent(db: Kysely<Database>, p: Principal, id: string): Promise<AgentsTable | undefined> {
  return db.selectFrom('agents as a').selectAll('a').where('a.org_id', '=', p.orgId).where('a.id', '=', id).where(agentVisible(p, 'a')).executeTakeFirst();
}

/** Names of the given agents that the caller may see (others are silently absent), to label rows. */
export async function visibleAgentNames(db: Kysely<Database>, p: Principal, ids: (string | null)[]): Promise<Map<string, { id: string; name: string }>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('agents as a').select(['a.id', 'a.name']).where('a.org_id', '=', p.orgId).where('a.id', 'in', wanted).where(agentVisible(p, 'a')).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export async function visibleQualificationAgents(db: Kysely<Database>, p: Principal): Promise<AgentsTable[]> {
  return db
    .selectFrom('agents as a')
    .selectAll('a')
    .where('a.org_id', '=', p.orgId)
    .where('a.category', '=', 'qualification')
    .where('a.scope', '=', 'deal')
    .where(agentVisible(p, 'a'))
    .orderBy('a.is_primary', 'desc')
    .orderBy('a.name')
    .execute();
}

/** Stored results of one agent for the given (already visibility-checked) meetings. */
export async function agentResultsFor(db: Kysely<Database>, orgId: string, agentId: string, meetingIds: string[]): Promise<AgentResultsTable[]> {
  if (meetingIds.length === 0) return [];
  return db.selectFrom('agent_results').selectAll().where('org_id', '=', orgId).where('agent_id', '=', agentId).where('meeting_id', 'in', meetingIds).execute();
}

/** The visible agents that have a stored result for this (already visibility-checked) meeting. */
export async function resultsAvailableForMeeting(db: Kysely<Database>, p: Principal, meetingId: string): Promise<{ agent_id: string; name: string; status: AgentResultsTable['status'] }[]> {
  return db
    .selectFrom('agent_results as r')
    .innerJoin('agents as a', (j) => j.onRef('a.org_id', '=', 'r.org_id').onRef('a.id', '=', 'r.agent_id'))
    .select(['r.agent_id', 'a.name', 'r.status'])
    .where('r.org_id', '=', p.orgId)
    .where('r.meeting_id', '=', meetingId)
    .where(agentVisible(p, 'a'))
    .orderBy('a.name')
    .execute();
}

export async function qualificationResult(db: Kysely<Database>, orgId: string, dealId: string, agentId: string): Promise<QualificationResultsTable | undefined> {
  return db.selectFrom('qualification_results').selectAll().where('org_id', '=', orgId).where('deal_id', '=', dealId).where('agent_id', '=', agentId).executeTakeFirst();
}

export async function qualificationResultsForDeals(db: Kysely<Database>, orgId: string, dealIds: string[], agentId: string): Promise<QualificationResultsTable[]> {
  if (dealIds.length === 0) return [];
  return db.selectFrom('qualification_results').selectAll().where('org_id', '=', orgId).where('agent_id', '=', agentId).where('deal_id', 'in', dealIds).execute();
}
