// list_meetings: the caller's visible meetings in a time window, newest first, keyset-paginated.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, limitParam, normalizeProspectOrg, ownerParam, prospectOrgParam, teamIdParam } from '../params.ts';
import { RANGE_PRESETS, resolveWindow, timeParam } from '../time.ts';
import { cursorBinding, decodePosition, pageOf, TimeIdPosition } from '../cursor.ts';
import { fitItems, listPage, iso, LIST_BUDGET_CHARS, pageFields, ScopeSchema, scopeOf } from '../format/common.ts';
import { MeetingItemSchema, meetingItems } from '../format/meetings.ts';
import { listMeetings, type MeetingFilters } from '../../store/sales/meetings.ts';
import { accountIdsByDomain } from '../../store/sales/lookups.ts';
import { resolveOwner } from './resolve.ts';

/** Totals are counted only this far: beyond it a count is not cheap (tools.md) and `total` is null. */
const TOTAL_CAP = 500;

const inputSchema = z.strictObject({
  start: timeParam('Window start (inclusive)'),
  end: timeParam('Window end (exclusive; a date means the end of that day)'),
  range: z.enum(RANGE_PRESETS).optional().describe('Preset window instead of start/end. Default when nothing is given: the last 30 days. Windows span at most 366 days.'),
  owner: ownerParam,
  participant_emails: z.array(z.string().min(3).max(320)).max(20).optional().describe('Only meetings with any of these participant emails.'),
  prospect_org: prospectOrgParam,
  deal_id: z.string().min(1).max(120).optional().describe('Only meetings linked to this deal (deal_… from get_deals).'),
  team_id: teamIdParam,
  status: z.enum(['scheduled', 'completed', 'canceled']).optional().describe('Only meetings with this status.'),
  meeting_type: z.enum(['internal', 'external', 'all']).default('all').describe('internal (no prospect), external, or all (default).'),
  has_transcript: z.boolean().optional().describe('true: only recorded meetings with a transcript; false: only those without.'),
  q: z.string().min(1).max(200).optional().describe('Text in the title or in a participant\'s name, email or company.'),
  sort: z.enum(['start_desc', 'start_asc']).default('start_desc').describe('start_desc (newest first, default) or start_asc.'),
  limit: limitParam('meetings'),
  cursor: cursorParam('list_meetings'),
});

const outputSchema = z.object({
  meetings: z.array(MeetingItemSchema),
  ...pageFields,
  total: z.number().nullable().describe(`Meetings matching the filters, on the first page when there are at most ${TOTAL_CAP.toLocaleString('en-US')}; null on later pages and above that (narrow the window or filters for an exact count).`),
  truncated: z.boolean().describe('true when fewer than limit items were returned to stay within the size budget; follow next_cursor.'),
  filters: z.object({ start: z.string(), end: z.string(), window: z.string(), owner: z.string().nullable(), prospect_org: z.string().nullable(), deal_id: z.string().nullable(), team_id: z.string().nullable(), status: z.string().nullable(), meeting_type: z.string(), has_transcript: z.boolean().nullable(), q: z.string().nullable(), sort: z.string() }),
  scope: ScopeSchema,
});

export const listMeetingsTool = defineTool({
  name: 'list_meetings',
  title: 'List meetings',
  description:
    'Lists the sales meetings you can see (calls with prospects and internal meetings) in a time window, newest first: title, times, owner, prospect_org, deal_id, external participants, whether a transcript and notes exist, and a link. Default window: the last 30 days (use range, or start/end, up to 366 days). Filter by owner ("me" or email), participant_emails, prospect_org, deal_id, team_id, status, meeting_type, has_transcript or q. Paginate with next_cursor. Next: get_meeting for notes and participants, get_meeting_transcript for what was said, agent_results for scorecards.',
  inputSchema,
  outputSchema,
  annotations: readOnly('List meetings'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const window = resolveWindow(args, ctx.now);
    const filters: MeetingFilters = { from: window.from, to: window.to };
    if (args.owner) filters.ownerId = (await resolveOwner(ctx, args.owner)).id;
    if (args.prospect_org) filters.accountIds = await accountIdsByDomain(db, ctx.principal.orgId, normalizeProspectOrg(args.prospect_org));
    if (args.participant_emails) filters.participantEmails = args.participant_emails;
    if (args.deal_id) filters.dealId = args.deal_id;
    if (args.team_id) filters.teamId = args.team_id;
    if (args.status) filters.status = args.status;
    if (args.meeting_type !== 'all') filters.meetingType = args.meeting_type;
    if (args.has_transcript !== undefined) filters.hasTranscript = args.has_transcript;
    if (args.q) filters.q = args.q;
    const order = args.sort === 'start_asc' ? 'asc' : 'desc';
    const { cursor, limit, ...query } = args;
    const binding = cursorBinding(ctx, 'list_meetings', { ...query, from: window.from, to: window.to });
    const after = cursor ? decodePosition(binding, cursor, TimeIdPosition) : null;
    // The page with its participants and, on a first page, the capped total (one statement on PostgreSQL).
    const { rows, total } = await listMeetings(db, ctx.principal, filters, order, after, limit + 1, cursor ? null : TOTAL_CAP);
    const fitted = fitItems(meetingItems(ctx, rows.slice(0, limit)), LIST_BUDGET_CHARS);
    return listPage('meetings', fitted, {
      ...pageOf(binding, rows, limit, fitted.kept.length, (m) => [m.start_at, m.id]),
      total,
      truncated: fitted.cut,
      filters: {
        start: iso(window.from),
        end: iso(window.to),
        window: window.source,
        owner: args.owner ?? null,
        prospect_org: args.prospect_org ? normalizeProspectOrg(args.prospect_org) : null,
        deal_id: args.deal_id ?? null,
        team_id: args.team_id ?? null,
        status: args.status ?? null,
        meeting_type: args.meeting_type,
        has_transcript: args.has_transcript ?? null,
        q: args.q ?? null,
        sort: args.sort,
      },
      scope: scopeOf(ctx),
    });
  },
});
