// get_qualification_results: a deal's qualification (MEDDPICC, BANT, …) by dimension, with
// evidence and gaps, from the organization's primary qualification agent unless one is named.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { dealIdParam, includeEvidenceParam } from '../params.ts';
import { InvalidArgument, NotFound } from '../errors.ts';
import { appLink, iso, ScopeSchema, scopeOf } from '../format/common.ts';
import { DealHeaderSchema, dealHeader, dealRefParams } from '../format/deals.ts';
import { findVisibleAgent, qualificationResult } from '../../store/sales/agents.ts';
import { findVisibleMeetings } from '../../store/sales/meetings.ts';
import { usersById } from '../../store/sales/lookups.ts';
import { parseJson, DimensionsJson, HistoryListJson, StringsJson } from '../../store/sales/json.ts';
import { resolveDeal } from './resolve.ts';
import { AMBIGUOUS, candidateList, defaultQualificationAgent, qualificationTotals } from './qualification.ts';

const inputSchema = z.strictObject({
  deal_id: dealIdParam.optional(),
  ...dealRefParams,
  template_id: z.string().min(1).max(120).optional().describe('Qualification agent (agt_… from list_agents). Default: the organization\'s primary qualification agent.'),
  include_evidence: includeEvidenceParam,
  include_history: z.boolean().default(false).describe('Include how the total percent changed over time.'),
});

const outputSchema = z.object({
  deal: DealHeaderSchema,
  framework: z.object({ template_id: z.string(), name: z.string(), methodology: z.string().nullable() }),
  dimensions: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      score: z.number(),
      max_score: z.number(),
      status: z.enum(['strong', 'partial', 'missing']),
      summary: z.string(),
      evidence: z.array(z.object({ quote: z.string(), speaker: z.string(), side: z.string(), start_s: z.number(), meeting_id: z.string().nullable() })).optional(),
      gaps: z.array(z.string()),
    }),
  ),
  total_score: z.number(),
  max_total_score: z.number(),
  percent: z.number(),
  counts: z.object({ strong: z.number(), partial: z.number(), missing: z.number() }),
  meetings: z.array(z.object({ meeting_id: z.string(), title: z.string(), start: z.string(), url: z.string() })).describe('The visible meetings the result was computed from.'),
  updated_at: z.string(),
  history: z.array(z.object({ updated_at: z.string(), total_percent: z.number() })).optional(),
  scope: ScopeSchema,
});

export const getQualificationResultsTool = defineTool({
  name: 'get_qualification_results',
  title: 'Get qualification results',
  description:
    'Returns how well a deal is qualified under a framework (MEDDPICC by default, or BANT, …): every dimension with score, max, status (strong, partial, missing), summary, evidence quotes and gaps, the totals and percent, the meetings it was computed from, and when it was updated. Identify the deal with deal_id (or deal_key, or prospect_org + deal_id). Get deal ids from get_deals; other frameworks\' template_id from list_agents.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Get qualification results'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const deal = await resolveDeal(ctx, args, 'get_qualification_results');
    let agent;
    if (args.template_id) {
      agent = await findVisibleAgent(db, ctx.principal, args.template_id);
      if (!agent) throw new NotFound(`No agent template ${args.template_id} is visible to you.`, 'Call list_agents with category "qualification".');
      if (agent.scope !== 'deal') throw new InvalidArgument(`${agent.name} is a meeting-scope agent.`, `Call agent_results with template_id "${agent.id}" and a meeting_id or deal_id.`);
    } else {
      const choice = await defaultQualificationAgent(ctx);
      if (choice.kind === 'none') throw new NotFound('Your organization has no qualification agent you can see.', 'Call list_agents to see the available agents.');
      if (choice.kind === 'ambiguous') throw new InvalidArgument(`No default qualification agent: ${AMBIGUOUS}; name one with "template_id".`, `Candidates: ${candidateList(choice.candidates)}.`);
      agent = choice.agent;
    }
    const result = await qualificationResult(db, ctx.principal.orgId, deal.id, agent.id);
    if (!result) {
      throw new NotFound(`No ${agent.name} result for deal ${deal.id} yet: it is computed from recorded calls, and this deal has none so far.`, 'Use get_deal to see its meetings, or try another template_id from list_agents.');
    }
    const dims = parseJson(DimensionsJson, result.dimensions);
    const meetingIds = parseJson(StringsJson, result.meeting_ids);
    const [meetings, owners] = await Promise.all([findVisibleMeetings(db, ctx.principal, meetingIds), usersById(db, ctx.principal.orgId, [deal.owner_id])]);
    const visible = new Set(meetings.map((m) => m.id));
    const { total, max, percent } = qualificationTotals(dims);
    return {
      structured: {
        deal: dealHeader(ctx, deal, owners),
        framework: { template_id: agent.id, name: agent.name, methodology: agent.methodology },
        dimensions: dims.map((d) => ({
          key: d.key,
          title: d.title,
          score: d.score,
          max_score: d.max_score,
          status: d.status,
          summary: d.summary,
          ...(args.include_evidence
            ? { evidence: d.evidence.filter((e) => !e.meeting_id || visible.has(e.meeting_id)).slice(0, 3).map((e) => ({ quote: e.quote, speaker: e.speaker, side: e.side, start_s: e.start_s, meeting_id: e.meeting_id ?? null })) }
            : {}),
          gaps: d.gaps,
        })),
        total_score: total,
        max_total_score: max,
        percent: percent ?? 0,
        counts: { strong: dims.filter((d) => d.status === 'strong').length, partial: dims.filter((d) => d.status === 'partial').length, missing: dims.filter((d) => d.status === 'missing').length },
        meetings: meetings.sort((a, b) => a.start_at - b.start_at).map((m) => ({ meeting_id: m.id, title: m.title, start: iso(m.start_at), url: appLink(ctx, 'meetings', m.id) })),
        updated_at: iso(result.updated_at),
        ...(args.include_history ? { history: parseJson(HistoryListJson, result.history) } : {}),
        scope: scopeOf(ctx),
      },
    };
  },
});
