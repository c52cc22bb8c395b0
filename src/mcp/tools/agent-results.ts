// agent_results: stored results of one meeting-scope agent for one meeting, a list of meetings,
// or a deal's latest meetings. Reads only; a meeting without a transcript is a per-result status.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { dealIdParam, includeEvidenceParam, meetingIdParam, templateIdParam } from '../params.ts';
import { Forbidden, InvalidArgument, NotFound } from '../errors.ts';
import { appLink, fitItems, iso, LIST_BUDGET_CHARS, percentOf, ScopeSchema, scopeOf } from '../format/common.ts';
import { findVisibleAgent, agentResultsFor } from '../../store/sales/agents.ts';
import { findVisibleMeetings, meetingsOfDeal, type MeetingListRow } from '../../store/sales/meetings.ts';
import { parseJson, AgentPropertiesJson, ResultPropertiesJson } from '../../store/sales/json.ts';
import { meetingDetailsAllowed } from '../../access/visibility.ts';
import { resolveDeal } from './resolve.ts';

const inputSchema = z.strictObject({
  template_id: templateIdParam,
  meeting_id: meetingIdParam.optional(),
  meeting_ids: z.array(z.string().min(1).max(120)).min(1).max(20).optional().describe('Up to 20 meeting ids (instead of meeting_id).'),
  deal_id: dealIdParam.optional().describe('Instead of meeting ids: the results on this deal\'s latest recorded meetings (see last_n_meetings).'),
  last_n_meetings: z.number().int().min(1).max(10).default(3).describe('With deal_id: how many of the latest completed meetings (1–10, default 3).'),
  include_evidence: includeEvidenceParam,
});

const EvidenceSchema = z.object({ quote: z.string(), speaker: z.string(), side: z.string(), start_s: z.number() });
const ResultSchema = z.object({
  meeting: z.object({ meeting_id: z.string(), title: z.string(), start: z.string(), url: z.string() }),
  status: z.enum(['ok', 'no_transcript', 'not_run', 'error']),
  generated_at: z.string().nullable(),
  properties: z.array(z.object({ key: z.string(), title: z.string(), result_md: z.string(), score: z.number().nullable(), max_score: z.number().nullable(), evidence: z.array(EvidenceSchema).optional() })),
  total_score: z.number().nullable(),
  max_total_score: z.number().nullable(),
  percent: z.number().nullable().describe('total_score / max_total_score × 100, computed by the server.'),
});

const outputSchema = z.object({
  template: z.object({ template_id: z.string(), name: z.string(), methodology: z.string().nullable(), scope: z.enum(['meeting', 'deal']) }),
  results: z.array(ResultSchema),
  truncated: z.boolean().describe('true when some results were left out to stay within the size budget; ask for fewer meetings.'),
  scope: ScopeSchema,
});

export const agentResultsTool = defineTool({
  name: 'agent_results',
  title: 'Agent results',
  description:
    'Reads the stored results of one meeting-scope agent (e.g. the call scorecard) for meeting_id, meeting_ids (up to 20) or a deal_id\'s latest meetings: per meeting a status (ok, no_transcript, not_run, error), the ordered properties with score and max score, evidence quotes with speaker and time, and a server-computed total and percent. Never runs an agent. Get template_id from list_agents; for deal qualification (MEDDPICC, BANT) use get_qualification_results.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Agent results'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const given = [args.meeting_id, args.meeting_ids, args.deal_id].filter((x) => x !== undefined).length;
    if (given !== 1) throw new InvalidArgument('Give exactly one of "meeting_id", "meeting_ids" or "deal_id".', 'For example {"template_id": "agt_…", "meeting_id": "mtg_…"}.');
    const agent = await findVisibleAgent(db, ctx.principal, args.template_id);
    if (!agent) throw new NotFound(`No agent template ${args.template_id} is visible to you.`, 'Call list_agents to see the templates you can use.');
    if (agent.scope === 'deal') {
      throw new InvalidArgument(`${agent.name} is a deal-scope agent; its results are per deal, not per meeting.`, `Call get_qualification_results with template_id "${agent.id}" and a deal_id.`);
    }
    let meetings: (Pick<MeetingListRow, 'id' | 'title' | 'start_at' | 'status' | 'has_transcript'> & { attended: number })[];
    if (args.deal_id !== undefined) {
      const deal = await resolveDeal(ctx, { deal_id: args.deal_id }, 'agent_results');
      meetings = await meetingsOfDeal(db, ctx.principal, deal.id, { pastBefore: ctx.now, completedOnly: true }, null, args.last_n_meetings);
    } else {
      const ids = [...new Set(args.meeting_ids ?? [args.meeting_id!])];
      const found = await findVisibleMeetings(db, ctx.principal, ids);
      const missing = ids.filter((id) => !found.some((m) => m.id === id));
      if (missing.length) throw new NotFound(`No meeting ${missing.join(', ')} is visible to you.`, 'Use list_meetings to find meeting ids you can see.');
      meetings = ids.map((id) => found.find((m) => m.id === id)!);
    }
    const restricted = meetings.filter((m) => !meetingDetailsAllowed(ctx.principal, m.attended === 1));
    if (restricted.length) {
      throw new Forbidden(`Agent results of meeting ${restricted.map((m) => m.id).join(', ')} are limited to participants by your organization, and you did not attend.`, 'Leave those meetings out, or ask a participant or an administrator.');
    }
    const stored = await agentResultsFor(db, ctx.principal.orgId, agent.id, meetings.map((m) => m.id));
    const defined = parseJson(AgentPropertiesJson, agent.properties);
    const results = meetings.map((m) => {
      const r = stored.find((x) => x.meeting_id === m.id);
      const status = r ? r.status : m.has_transcript === 1 ? 'not_run' : 'no_transcript';
      const props = r && r.status === 'ok' ? parseJson(ResultPropertiesJson, r.properties) : [];
      const scored = props.filter((p) => p.score !== null && p.max_score !== null);
      const total = scored.length ? scored.reduce((s, p) => s + p.score!, 0) : null;
      const max = status === 'ok' ? defined.reduce((s, p) => s + (p.max_score ?? 0), 0) || null : null;
      return {
        meeting: { meeting_id: m.id, title: m.title, start: iso(m.start_at), url: appLink(ctx, 'meetings', m.id) },
        status,
        generated_at: r ? iso(r.generated_at) : null,
        properties: props.map((p) => ({ key: p.key, title: p.title, result_md: p.result_md, score: p.score, max_score: p.max_score, ...(args.include_evidence ? { evidence: p.evidence.slice(0, 3).map((e) => ({ quote: e.quote, speaker: e.speaker, side: e.side, start_s: e.start_s })) } : {}) })),
        total_score: total,
        max_total_score: max,
        percent: total !== null ? percentOf(total, max) : null,
      };
    });
    const { kept, cut } = fitItems(results, LIST_BUDGET_CHARS);
    return {
      structured: { template: { template_id: agent.id, name: agent.name, methodology: agent.methodology, scope: agent.scope }, results: kept, truncated: cut, scope: scopeOf(ctx) },
    };
  },
});
