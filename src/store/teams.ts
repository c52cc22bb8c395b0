// Teams, their members and managers. Sub-teams nest through parent_team_id.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { newId, now } from './ids.ts';
import { uniquely } from './errors.ts';
import { prepare } from './prepared.ts';

export type Team = { id: string; orgId: string; name: string; parentTeamId: string | null };
export type TeamMember = { teamId: string; userId: string; isManager: boolean };

export async function createTeam(db: Kysely<Database>, input: { id?: string; orgId: string; name: string; parentTeamId?: string | null }): Promise<Team> {
  const at = now();
  const team: Team = { id: input.id ?? newId('team', at), orgId: input.orgId, name: input.name, parentTeamId: input.parentTeamId ?? null };
  await db
    .insertInto('teams')
    .values({ org_id: team.orgId, id: team.id, name: team.name, parent_team_id: team.parentTeamId, created_at: at, updated_at: at })
    .execute();
  return team;
}

export async function addTeamMember(db: Kysely<Database>, orgId: string, member: TeamMember): Promise<void> {
  await uniquely('that user is already a member of the team', () =>
    db
      .insertInto('team_members')
      .values({ org_id: orgId, team_id: member.teamId, user_id: member.userId, is_manager: member.isManager ? 1 : 0, created_at: now() })
      .execute(),
  );
}

export async function listTeams(db: Kysely<Database>, orgId: string): Promise<Team[]> {
  const rows = await db.selectFrom('teams').select(['id', 'org_id', 'name', 'parent_team_id']).where('org_id', '=', orgId).orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, orgId: r.org_id, name: r.name, parentTeamId: r.parent_team_id }));
}

export async function listTeamMembers(db: Kysely<Database>, orgId: string, teamId: string): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom('team_members')
    .select(['team_id', 'user_id', 'is_manager'])
    .where('org_id', '=', orgId)
    .where('team_id', '=', teamId)
    .orderBy('user_id')
    .execute();
  return rows.map((r) => ({ teamId: r.team_id, userId: r.user_id, isManager: r.is_manager === 1 }));
}

const teamIdsOfUserStatement = prepare<[string, string]>()((db, $) => db.selectFrom('team_members').select('team_id').where('org_id', '=', $<string>(0)).where('user_id', '=', $<string>(1)).orderBy('team_id'));

export async function teamIdsOfUser(db: Kysely<Database>, orgId: string, userId: string): Promise<string[]> {
  const { rows } = await teamIdsOfUserStatement.execute(db, orgId, userId);
  return rows.map((r) => r.team_id);
}

/** The teams a user manages, with every sub-team below them (recursive; both dialects). */
export async function managedTeamIds(db: Kysely<Database>, orgId: string, userId: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    with recursive managed(id) as (
      select team_id from team_members where org_id = ${orgId} and user_id = ${userId} and is_manager = 1
      union
      select t.id from teams t join managed m on t.parent_team_id = m.id where t.org_id = ${orgId}
    )
    select id from managed order by id`.execute(db);
  return result.rows.map((r) => r.id);
}
