// Teams and members as get_teams shows them, bounded by the access policy (viewers: own teams).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Principal } from '../../access/principal.ts';
import { teamVisible } from '../../access/visibility.ts';

export type TeamRow = { id: string; name: string; parent_team_id: string | null };
export type MemberRow = { team_id: string; user_id: string; name: string; email: string; role: string; is_manager: number };

export async function visibleTeams(db: Kysely<Database>, p: Principal, only?: { teamId?: string; mine?: boolean }): Promise<TeamRow[]> {
  let q = db.selectFrom('teams as t').select(['t.id', 't.name', 't.parent_team_id']).where('t.org_id', '=', p.orgId).where(teamVisible(p, 't'));
  if (only?.teamId) q = q.where('t.id', '=', only.teamId);
  if (only?.mine) q = p.teamIds.length ? q.where('t.id', 'in', p.teamIds) : q.where('t.id', '=', '');
  return q.orderBy('t.name').orderBy('t.id').execute();
}

/** Members of the given (visible) teams, managers first, then by name; keyset on (is_manager desc, name, user id). */
export async function membersOf(db: Kysely<Database>, orgId: string, teamIds: string[]): Promise<MemberRow[]> {
  if (teamIds.length === 0) return [];
  return membersQuery(db, orgId, teamIds).execute();
}

/**
 * membersOf's statement (exported for the test of its SQLite plan). CROSS JOIN keeps SQLite reading
 * the teams' members first, then each member's label from users_label (migration 0023): with a
 * plain join and that index it chose to walk every user of the organization and look each one up
 * in every team (W1's 50 users: ~80 → ~111 µs).
 */
export function membersQuery(db: Kysely<Database>, orgId: string, teamIds: string[]) {
  return db
    .selectFrom('team_members as tm')
    .crossJoin('users as u')
    .whereRef('u.org_id', '=', 'tm.org_id')
    .whereRef('u.id', '=', 'tm.user_id')
    .select(['tm.team_id', 'tm.user_id', 'u.name', 'u.email', 'u.role', 'tm.is_manager'])
    .where('tm.org_id', '=', orgId)
    .where('tm.team_id', 'in', teamIds)
    .orderBy('tm.team_id')
    .orderBy('tm.is_manager', 'desc')
    .orderBy('u.name')
    .orderBy('tm.user_id');
}
