// get_deal: one deal with its CRM block, completed and upcoming meetings, stakeholders and a
// qualification summary. Meetings page with meetings_cursor.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { dealIdParam } from '../params.ts';
import { cursorBinding, decodePosition, pageOf, TimeIdPosition } from '../cursor.ts';
import { iso, ScopeSchema, scopeOf } from '../format/common.ts';
import { DealHeaderSchema, dealHeader, dealRefParams } from '../format/deals.ts';
import { MeetingItemSchema, meetingItems } from '../format/meetings.ts';
import { dealStakeholders } from '../../store/sales/deal-meetings.ts';
import { meetingsOfDeal } from '../../store/sales/meetings.ts';
import { usersById } from '../../store/sales/lookups.ts';
import { qualificationResult } from '../../store/sales/agents.ts';
import { CustomFieldsJson, parseJson, DimensionsJson } from '../../store/sales/json.ts';
import { resolveDeal } from './resolve.ts';
import { ambiguityNote, defaultQualificationAgent, qualificationTotals } from './qualification.ts';

const INCLUDES = ['crm', 'meetings', 'upcoming_meetings', 'stakeholders', 'qualification_summary'] as const;
const MAX_STAKEHOLDERS = 30;
const MAX_UPCOMING = 10;

const inputSchema = z.strictObject({
  deal_id: dealIdParam.optional(),
  ...dealRefParams,
  include: z.array(z.enum(INCLUDES)).max(5).optional().describe('Parts to include; default all of crm, meetings, upcoming_meetings, stakeholders, qualification_summary.'),
  meetings_limit: z.number().int().min(1).max(50).default(10).describe('Completed meetings per page (1–50, default 10), newest first.'),
  meetings_cursor: z.string().min(1).max(2000).optional().describe('meetings.next_cursor from the previous get_deal result for the same deal.'),
});

const outputSchema = z.object({
  deal: DealHeaderSchema,
  crm: z.object({ crm_linked: z.boolean(), system: z.enum(['salesforce', 'hubspot', 'none']), opportunity_id: z.string().nullable(), url: z.string().nullable(), custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])) }).nullable(),
  meetings: z.object({ items: z.array(MeetingItemSchema), next_cursor: z.string().nullable(), has_more: z.boolean() }).nullable(),
  upcoming_meetings: z.array(MeetingItemSchema).nullable(),
  stakeholders: z.object({ people: z.array(z.object({ name: z.string(), email: z.string().nullable(), title: z.string().nullable(), company: z.string().nullable(), side: z.string(), meetings_attended: z.number(), last_seen: z.string() })), total: z.number() }).nullable(),
  qualification_summary: z.object({ template_id: z.string(), name: z.string(), percent: z.number(), strong: z.array(z.string()), gaps: z.array(z.string()), updated_at: z.string() }).nullable(),
  qualification_note: z.string().nullable().describe('Why qualification_summary is null when no default qualification agent can be chosen, and what to call instead; null otherwise.'),
  scope: ScopeSchema,
});

export const getDealTool = defineTool({
  name: 'get_deal',
  title: 'Get deal',
  description:
    'Returns one deal: stage, status, amount, close date, owner, the CRM block (crm_linked false when not linked), its completed meetings (paged with meetings_cursor) and upcoming ones, stakeholders (name, title, side, meetings attended, last seen) and a qualification summary. Identify it with deal_id (or deal_key, or prospect_org + deal_id) from get_deals. Next: get_qualification_results for every dimension, get_meeting for a meeting.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Get deal'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const deal = await resolveDeal(ctx, args, 'get_deal');
    const include = new Set<string>(args.include ?? INCLUDES);
    const owners = await usersById(db, ctx.principal.orgId, [deal.owner_id]);
    const binding = cursorBinding(ctx, 'get_deal', { deal_id: deal.id, meetings_limit: args.meetings_limit });
    let meetings = null;
    if (include.has('meetings')) {
      const after = args.meetings_cursor ? decodePosition(binding, args.meetings_cursor, TimeIdPosition, 'meetings_cursor') : null;
      // tools.md: the deal's completed meetings (not canceled ones); the keyset cursor pages within that filter.
      const rows = await meetingsOfDeal(db, ctx.principal, deal.id, { pastBefore: ctx.now, completedOnly: true }, after, args.meetings_limit + 1);
      const page = rows.slice(0, args.meetings_limit);
      meetings = { items: meetingItems(ctx, page), ...pageOf(binding, rows, args.meetings_limit, page.length, (m) => [m.start_at, m.id]) };
    }
    const upcoming = include.has('upcoming_meetings') ? meetingItems(ctx, await meetingsOfDeal(db, ctx.principal, deal.id, { upcomingAfter: ctx.now }, null, MAX_UPCOMING)) : null;
    let stakeholders = null;
    if (include.has('stakeholders')) {
      const s = await dealStakeholders(db, ctx.principal, deal.id, MAX_STAKEHOLDERS);
      stakeholders = { people: s.people.map((p) => ({ ...p, last_seen: iso(p.last_seen) })), total: s.total };
    }
    let qualification = null;
    let qualificationNote: string | null = null;
    if (include.has('qualification_summary')) {
      const choice = await defaultQualificationAgent(ctx);
      if (choice.kind === 'ambiguous') qualificationNote = ambiguityNote(choice.candidates, 'qualification_summary');
      const agent = choice.kind === 'chosen' ? choice.agent : undefined;
      const result = agent ? await qualificationResult(db, ctx.principal.orgId, deal.id, agent.id) : undefined;
      if (agent && result) {
        const dims = parseJson(DimensionsJson, result.dimensions);
        qualification = {
          template_id: agent.id,
          name: agent.name,
          percent: qualificationTotals(dims).percent ?? 0,
          strong: dims.filter((d) => d.status === 'strong').map((d) => d.title),
          gaps: dims.filter((d) => d.status !== 'strong').map((d) => `${d.title}: ${d.gaps[0] ?? d.summary}`),
          updated_at: iso(result.updated_at),
        };
      }
    }
    const header = dealHeader(ctx, deal, owners);
    return {
      structured: {
        deal: header,
        crm: include.has('crm')
          ? { crm_linked: header.crm_linked, system: deal.crm_system, opportunity_id: deal.crm_opportunity_id, url: deal.crm_url, custom_fields: parseJson(CustomFieldsJson, deal.crm_custom_fields) }
          : null,
        meetings,
        upcoming_meetings: upcoming,
        stakeholders,
        qualification_summary: qualification,
        qualification_note: qualificationNote,
        scope: scopeOf(ctx),
      },
    };
  },
});
