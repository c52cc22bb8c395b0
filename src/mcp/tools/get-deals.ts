// get_deals: the caller's visible deals with pipeline facts, keyset-paginated on the sort key.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, limitParam, normalizeProspectOrg, ownerParam, prospectOrgParam, teamIdParam } from '../params.ts';
import { cursorBinding, decodePosition, pageOf } from '../cursor.ts';
import { fitItems, listPage, iso, LIST_BUDGET_CHARS, pageFields, ScopeSchema, scopeOf } from '../format/common.ts';
import { DealHeaderSchema, dealHeader } from '../format/deals.ts';
import { listDeals, type DealFilters, type DealSort } from '../../store/sales/deals.ts';
import { firstDealsPage } from '../../store/sales/deal-first-page.ts';
import { dealMeetingStats } from '../../store/sales/deal-meetings.ts';
import { qualificationResultsForDeals } from '../../store/sales/agents.ts';
import { usersById } from '../../store/sales/lookups.ts';
import { parseJson, DimensionsJson } from '../../store/sales/json.ts';
import { resolveOwner } from './resolve.ts';
import { ambiguityNote, defaultQualificationAgent, qualificationTotals } from './qualification.ts';

/** (close date or amount, id), as the sort orders deals. */
const DealPosition = z.tuple([z.union([z.string(), z.number()]), z.string()]);

const date = (what: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD').optional().describe(`${what} (YYYY-MM-DD, inclusive).`);

const inputSchema = z.strictObject({
  search: z.string().min(1).max(200).optional().describe('Text in the deal name, account name or account domain.'),
  owner: ownerParam,
  team_id: teamIdParam,
  prospect_org: prospectOrgParam,
  status: z.enum(['open', 'won', 'lost', 'all']).default('open').describe('open (default), won, lost or all.'),
  stage: z.array(z.enum(['discovery', 'demo', 'proposal', 'negotiation', 'closed_won', 'closed_lost'])).max(6).optional().describe('Only these stages.'),
  close_date_from: date('Earliest close date'),
  close_date_to: date('Latest close date'),
  amount_min: z.number().min(0).optional().describe('Minimum amount, in the deal currency.'),
  amount_max: z.number().min(0).optional().describe('Maximum amount, in the deal currency.'),
  has_upcoming_meeting: z.boolean().optional().describe('true: only deals with a scheduled meeting ahead.'),
  sort: z.enum(['close_date_asc', 'close_date_desc', 'amount_desc', 'amount_asc']).default('close_date_asc').describe('Order: close_date_asc (default), close_date_desc, amount_desc or amount_asc.'),
  limit: limitParam('deals'),
  cursor: cursorParam('get_deals'),
});

const MeetingRef = z.object({ meeting_id: z.string(), start: z.string() }).nullable();
const DealItemSchema = DealHeaderSchema.extend({ meeting_count: z.number(), last_meeting: MeetingRef, next_meeting: MeetingRef, qualification_percent: z.number().nullable() });
const outputSchema = z.object({
  deals: z.array(DealItemSchema),
  ...pageFields,
  total: z.number().nullable(),
  truncated: z.boolean(),
  qualification_note: z.string().nullable().describe('Why every qualification_percent is null when no default qualification agent can be chosen, and what to call instead; null otherwise.'),
  filters: z.object({ status: z.string(), sort: z.string(), owner: z.string().nullable(), search: z.string().nullable() }),
  scope: ScopeSchema,
});

export const getDealsTool = defineTool({
  name: 'get_deals',
  title: 'Get deals',
  description:
    'Lists the deals you can see (open by default): deal_id, prospect_org, name, stage, status, amount, currency, close date, owner, crm_linked, meeting count, last and next meeting, qualification percent, app and CRM links. Filter by search, owner ("me" or email), team_id, prospect_org, status, stage, close-date and amount ranges, has_upcoming_meeting; sort by close date or amount; paginate with next_cursor. Next: get_deal for one deal, get_qualification_results for its MEDDPICC/BANT.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Get deals'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const f: DealFilters = {};
    if (args.search) f.search = args.search;
    if (args.owner) f.ownerId = (await resolveOwner(ctx, args.owner)).id;
    if (args.team_id) f.teamId = args.team_id;
    if (args.prospect_org) f.accountDomain = normalizeProspectOrg(args.prospect_org);
    if (args.status !== 'all') f.status = args.status;
    if (args.stage) f.stages = args.stage;
    if (args.close_date_from) f.closeFrom = args.close_date_from;
    if (args.close_date_to) f.closeTo = args.close_date_to;
    if (args.amount_min !== undefined) f.amountMin = args.amount_min;
    if (args.amount_max !== undefined) f.amountMax = args.amount_max;
    if (args.has_upcoming_meeting) f.upcomingAfter = ctx.now;
    const sort: DealSort = args.sort;
    const { cursor, limit, ...query } = args;
    const binding = cursorBinding(ctx, 'get_deals', query);
    const after = cursor ? decodePosition(binding, cursor, DealPosition) : null;
    // A first page comes with its total (deal-first-page.ts); a later one has none.
    const first = after === null ? await firstDealsPage(db, ctx.principal, f, sort, limit + 1) : null;
    const rows = first ? first.rows : await listDeals(db, ctx.principal, f, sort, after, limit + 1);
    const page = rows.slice(0, limit);
    const ids = page.map((d) => d.id);
    const [owners, stats, choice, total] = await Promise.all([
      usersById(db, ctx.principal.orgId, page.map((d) => d.owner_id)),
      dealMeetingStats(db, ctx.principal, ids, ctx.now),
      defaultQualificationAgent(ctx),
      first ? first.total() : null,
    ]);
    const quals = choice.kind === 'chosen' ? await qualificationResultsForDeals(db, ctx.principal.orgId, ids, choice.agent.id) : [];
    const percent = new Map(quals.map((q) => [q.deal_id, qualificationTotals(parseJson(DimensionsJson, q.dimensions)).percent]));
    const items = page.map((d) => {
      const s = stats.get(d.id);
      return {
        ...dealHeader(ctx, d, owners),
        meeting_count: s?.count ?? 0,
        last_meeting: s?.last ? { meeting_id: s.last.id, start: iso(s.last.start_at) } : null,
        next_meeting: s?.next ? { meeting_id: s.next.id, start: iso(s.next.start_at) } : null,
        qualification_percent: percent.get(d.id) ?? null,
      };
    });
    const fitted = fitItems(items, LIST_BUDGET_CHARS);
    return listPage('deals', fitted, {
      ...pageOf(binding, rows, limit, fitted.kept.length, (d) => [sort.startsWith('amount') ? d.amount : d.close_date, d.id]),
      total,
      truncated: fitted.cut,
      qualification_note: choice.kind === 'ambiguous' ? ambiguityNote(choice.candidates, 'qualification_percent') : null,
      filters: { status: args.status, sort, owner: args.owner ?? null, search: args.search ?? null },
      scope: scopeOf(ctx),
    });
  },
});
