// list_reports: the reports the caller can see, newest period first, with size estimates.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, limitParam, ownerParam, teamIdParam } from '../params.ts';
import { cursorBinding, decodePosition, pageOf, TextIdPosition } from '../cursor.ts';
import { appLink, estTokens, fitItems, listPage, iso, LIST_BUDGET_CHARS, pageFields, PersonSchema, ScopeSchema, scopeOf } from '../format/common.ts';
import { listReports, type ReportFilters } from '../../store/sales/reports.ts';
import { teamsById, usersById } from '../../store/sales/lookups.ts';
import { visibleAgentNames } from '../../store/sales/agents.ts';
import { resolveOwner } from './resolve.ts';

const date = (what: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD').optional().describe(`${what} (YYYY-MM-DD). Reports whose period overlaps the range are returned.`);

const inputSchema = z.strictObject({
  type: z.enum(['weekly', 'deal', 'team', 'custom']).optional().describe('Only reports of this type.'),
  team_id: teamIdParam,
  owner: ownerParam,
  period_start: date('Range start'),
  period_end: date('Range end'),
  q: z.string().min(1).max(200).optional().describe('Text in the report title.'),
  limit: limitParam('reports'),
  cursor: cursorParam('list_reports'),
});

const ReportItemSchema = z.object({
  report_id: z.string().describe('Pass to read_report.'),
  title: z.string(),
  type: z.enum(['weekly', 'deal', 'team', 'custom']),
  period: z.object({ start: z.string(), end: z.string() }),
  generated_at: z.string(),
  generated_by: z.object({ template_id: z.string(), name: z.string() }).nullable(),
  team: z.object({ team_id: z.string(), name: z.string() }).nullable(),
  owner: PersonSchema.nullable(),
  visibility: z.enum(['org', 'team', 'personal']),
  section_count: z.number(),
  est_tokens: z.number(),
  url: z.string(),
});
const outputSchema = z.object({ reports: z.array(ReportItemSchema), ...pageFields, truncated: z.boolean(), scope: ScopeSchema });

export const listReportsTool = defineTool({
  name: 'list_reports',
  title: 'List reports',
  description:
    'Lists the reports you can see (weekly pipeline reports per team and for the organization, deal and custom reports), newest period first: report_id, title, type, period, when and by which agent it was generated, team, owner, section count and estimated tokens. Filter by type, team_id, owner, period_start/period_end or q; paginate with next_cursor. Next: read_report with a report_id.',
  inputSchema,
  outputSchema,
  annotations: readOnly('List reports'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const f: ReportFilters = {};
    if (args.type) f.type = args.type;
    if (args.team_id) f.teamId = args.team_id;
    if (args.owner) f.ownerId = (await resolveOwner(ctx, args.owner)).id;
    if (args.period_start) f.periodStart = args.period_start;
    if (args.period_end) f.periodEnd = args.period_end;
    if (args.q) f.q = args.q;
    const { cursor, limit, ...query } = args;
    const binding = cursorBinding(ctx, 'list_reports', query);
    const after = cursor ? decodePosition(binding, cursor, TextIdPosition) : null;
    const rows = await listReports(db, ctx.principal, f, after, limit + 1);
    const page = rows.slice(0, limit);
    const [users, teams, agents] = await Promise.all([
      usersById(db, ctx.principal.orgId, page.map((r) => r.owner_id)),
      teamsById(db, ctx.principal.orgId, page.map((r) => r.team_id)),
      visibleAgentNames(db, ctx.principal, page.map((r) => r.agent_id)),
    ]);
    const items = page.map((r) => {
      const owner = r.owner_id ? users.get(r.owner_id) : undefined;
      const team = r.team_id ? teams.get(r.team_id) : undefined;
      // An agent the caller may not see (personal, another team's) stays unnamed (domain.md).
      const agent = r.agent_id ? agents.get(r.agent_id) : undefined;
      return {
        report_id: r.id,
        title: r.title,
        type: r.type,
        period: { start: r.period_start, end: r.period_end },
        generated_at: iso(r.generated_at),
        generated_by: agent ? { template_id: agent.id, name: agent.name } : null,
        team: team ? { team_id: team.id, name: team.name } : null,
        owner: owner ? { name: owner.name, email: owner.email } : null,
        visibility: r.visibility,
        section_count: r.section_count,
        est_tokens: estTokens(r.total_chars),
        url: appLink(ctx, 'reports', r.id),
      };
    });
    const fitted = fitItems(items, LIST_BUDGET_CHARS);
    return listPage('reports', fitted, { ...pageOf(binding, rows, limit, fitted.kept.length, (r) => [r.period_end, r.id]), truncated: fitted.cut, scope: scopeOf(ctx) });
  },
});
