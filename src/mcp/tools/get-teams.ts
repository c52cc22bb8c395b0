// get_teams: who the caller is (me) and the teams they can see, with members and managers.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, teamIdParam } from '../params.ts';
import { cursorBinding, decodePosition, encodeCursor, OffsetPosition } from '../cursor.ts';
import { InvalidArgument, NotFound } from '../errors.ts';
import { ScopeSchema, scopeOf } from '../format/common.ts';
import { membersOf, visibleTeams } from '../../store/sales/teams-view.ts';

const MEMBERS_PER_TEAM = 50;

const inputSchema = z.strictObject({
  team_id: teamIdParam.describe('Only this team (team_…). Needed to page its members with cursor.'),
  include_members: z.boolean().default(true).describe('Include members (up to 50 per team; default true).'),
  only_mine: z.boolean().default(false).describe('Only the teams you belong to.'),
  cursor: cursorParam('get_teams').describe('members_next_cursor of a team, with the same team_id, to page its members.'),
});

const MemberSchema = z.object({ user_id: z.string(), name: z.string(), email: z.string(), role: z.string(), is_manager: z.boolean() });
const outputSchema = z.object({
  me: z.object({ user_id: z.string(), name: z.string(), email: z.string(), role: z.enum(['admin', 'manager', 'member', 'viewer']), timezone: z.string(), teams: z.array(z.object({ team_id: z.string(), name: z.string(), is_manager: z.boolean() })) }),
  teams: z.array(
    z.object({
      team_id: z.string(),
      name: z.string(),
      parent_team_id: z.string().nullable(),
      managers: z.array(z.object({ name: z.string(), email: z.string() })),
      member_count: z.number(),
      members: z.array(MemberSchema).nullable(),
      members_next_cursor: z.string().nullable(),
    }),
  ),
  scope: ScopeSchema,
});

export const getTeamsTool = defineTool({
  name: 'get_teams',
  title: 'Get teams',
  description:
    'Returns "me" (who you act for: name, email, role, timezone, teams) and the teams you can see with their managers and members (up to 50 per team; page one team\'s members with team_id + cursor). Call it first to learn the user\'s identity and team ids, then pass team_id or owner emails to list_meetings, get_deals or list_reports.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Get teams'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const p = ctx.principal;
    if (args.cursor && !args.team_id) throw new InvalidArgument('"cursor" pages the members of one team and needs "team_id".', 'Pass the same team_id as the team whose members_next_cursor you are following.');
    const teams = await visibleTeams(db, p, { teamId: args.team_id, mine: args.only_mine });
    if (args.team_id && teams.length === 0) throw new NotFound(`No team ${args.team_id} is visible to you.`, 'Call get_teams without team_id to list the teams you can see.');
    // Without team_id the caller's own teams are among those just read (every role sees its own teams).
    const myTeams = args.team_id ? await visibleTeams(db, p, { mine: true }) : teams.filter((t) => p.teamIds.includes(t.id));
    const members = await membersOf(db, p.orgId, [...new Set([...teams.map((t) => t.id), ...myTeams.map((t) => t.id)])]);
    const binding = (teamId: string) => cursorBinding(ctx, 'get_teams', { team_id: teamId });
    const [from] = args.cursor && args.team_id ? decodePosition(binding(args.team_id), args.cursor, OffsetPosition) : [0];
    return {
      structured: {
        me: {
          user_id: p.userId,
          name: p.name,
          email: p.email,
          role: p.role,
          timezone: p.timezone,
          teams: myTeams.map((t) => ({ team_id: t.id, name: t.name, is_manager: members.some((m) => m.team_id === t.id && m.user_id === p.userId && m.is_manager === 1) })),
        },
        teams: teams.map((t) => {
          const all = members.filter((m) => m.team_id === t.id);
          const page = all.slice(from, from + MEMBERS_PER_TEAM);
          const more = from + MEMBERS_PER_TEAM < all.length;
          return {
            team_id: t.id,
            name: t.name,
            parent_team_id: t.parent_team_id,
            managers: all.filter((m) => m.is_manager === 1).map((m) => ({ name: m.name, email: m.email })),
            member_count: all.length,
            members: args.include_members ? page.map((m) => ({ user_id: m.user_id, name: m.name, email: m.email, role: m.role, is_manager: m.is_manager === 1 })) : null,
            members_next_cursor: args.include_members && more ? encodeCursor(binding(t.id), [from + MEMBERS_PER_TEAM]) : null,
          };
        }),
        scope: scopeOf(ctx),
      },
    };
  },
});
