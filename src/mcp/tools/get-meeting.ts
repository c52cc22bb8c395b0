// get_meeting: one meeting with participants, AI notes, next steps, transcript availability,
// the previous meeting with the same account, and which agent results exist.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { meetingIdParam } from '../params.ts';
import { NotFound } from '../errors.ts';
import { appLink, estTokens, iso, PersonSchema, ScopeSchema, scopeOf } from '../format/common.ts';
import { findVisibleMeetingDetail, previousMeeting } from '../../store/sales/meetings.ts';
import { participantsOf } from '../../store/sales/meeting-participants.ts';
import { resultsAvailableForMeeting } from '../../store/sales/agents.ts';
import { parseJson, NextStepsJson, StringsJson } from '../../store/sales/json.ts';
import { meetingDetailsAllowed } from '../../access/visibility.ts';

const INCLUDES = ['notes', 'next_steps', 'participants', 'previous_meeting_notes', 'agent_results_available'] as const;
const PREVIOUS_SUMMARY_CHARS = 2_000;

const inputSchema = z.strictObject({
  meeting_id: meetingIdParam,
  include: z.array(z.enum(INCLUDES)).max(5).optional().describe('Parts to include. Default: notes, next_steps, participants, agent_results_available (previous_meeting_notes only when asked).'),
  include_previous_meeting_notes: z.boolean().optional().describe('Alias: true adds previous_meeting_notes (the summary of the previous meeting with the same account).'),
});

const ParticipantSchema = z.object({ name: z.string(), email: z.string().nullable(), title: z.string().nullable(), company: z.string().nullable(), side: z.enum(['seller', 'buyer', 'unknown']), talk_share_pct: z.number().nullable() });

const outputSchema = z.object({
  meeting: z.object({
    meeting_id: z.string(),
    title: z.string(),
    start: z.string(),
    end: z.string(),
    duration_min: z.number(),
    status: z.enum(['scheduled', 'completed', 'canceled']),
    meeting_type: z.enum(['internal', 'external']),
    language: z.string(),
    owner: PersonSchema,
    prospect_org: z.string().nullable(),
    account_name: z.string().nullable(),
    deal_id: z.string().nullable(),
    url: z.string(),
  }),
  details_restricted: z.boolean().describe('true when your organization limits notes, transcripts and agent results to meeting participants and you did not attend.'),
  participants: z.object({ sellers: z.array(ParticipantSchema), buyers: z.array(ParticipantSchema) }).nullable(),
  notes: z.object({ summary_md: z.string(), key_points: z.array(z.string()) }).nullable(),
  next_steps: z.array(z.object({ text: z.string(), owner: z.string().nullable(), due: z.string().nullable() })).nullable(),
  previous_meeting: z.object({ meeting_id: z.string(), title: z.string(), start: z.string(), summary_md: z.string().nullable(), truncated: z.boolean(), url: z.string() }).nullable(),
  transcript: z.object({ available: z.boolean(), reason_if_not: z.string().nullable(), segment_count: z.number(), est_tokens: z.number() }),
  agent_results_available: z.array(z.object({ template_id: z.string(), name: z.string(), status: z.string() })).nullable(),
  scope: ScopeSchema,
});

const REASONS: Record<string, string> = {
  not_recorded: 'the meeting was not recorded',
  consent_declined: 'a participant declined recording',
  scheduled: 'the meeting has not happened yet',
  canceled: 'the meeting was canceled',
  restricted: 'your organization limits transcripts to meeting participants',
};

export const getMeetingTool = defineTool({
  name: 'get_meeting',
  title: 'Get meeting',
  description:
    'Returns one meeting: title, times, owner, account and deal, seller and buyer participants with talk share, AI notes (summary, key points, next steps), whether a transcript exists and how big it is, the agent results available for it, and optionally the previous meeting with the same account (include_previous_meeting_notes). Use after list_meetings or get_deal. Next: get_meeting_transcript to read what was said, agent_results for scorecards.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Get meeting'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const m = await findVisibleMeetingDetail(db, ctx.principal, args.meeting_id);
    if (!m) throw new NotFound(`No meeting ${args.meeting_id} is visible to you.`, 'It does not exist or is outside your visibility. Use list_meetings to find meeting ids.');
    const include = new Set<string>(args.include ?? ['notes', 'next_steps', 'participants', 'agent_results_available']);
    if (args.include_previous_meeting_notes) include.add('previous_meeting_notes');
    const allowed = meetingDetailsAllowed(ctx.principal, m.attended === 1);
    const participants = await participantsOf(db, m.org_id, [m.id]);
    const talkTotal = participants.reduce((s, p) => s + p.talk_time_ms, 0);
    const person = (p: (typeof participants)[number]) => ({
      name: p.name,
      email: p.email,
      title: p.title,
      company: p.company,
      side: p.side,
      talk_share_pct: talkTotal > 0 ? Math.round((p.talk_time_ms / talkTotal) * 1000) / 10 : null,
    });
    let previous = null;
    if (include.has('previous_meeting_notes') && allowed) {
      const prev = await previousMeeting(db, ctx.principal, m);
      if (prev) {
        const summary = meetingDetailsAllowed(ctx.principal, prev.attended === 1) ? prev.summary_md : null;
        const cut = summary !== null && summary.length > PREVIOUS_SUMMARY_CHARS;
        previous = { meeting_id: prev.id, title: prev.title, start: iso(prev.start_at), summary_md: cut ? `${summary!.slice(0, PREVIOUS_SUMMARY_CHARS)}…` : summary, truncated: cut, url: appLink(ctx, 'meetings', prev.id) };
      }
    }
    const available = include.has('agent_results_available') && allowed ? await resultsAvailableForMeeting(db, ctx.principal, m.id) : null;
    const reason = !allowed ? 'restricted' : m.has_transcript ? null : (m.transcript_reason ?? 'not_recorded');
    return {
      structured: {
        meeting: {
          meeting_id: m.id,
          title: m.title,
          start: iso(m.start_at),
          end: iso(m.end_at),
          duration_min: Math.round((m.end_at - m.start_at) / 60_000),
          status: m.status,
          meeting_type: m.meeting_type,
          language: m.language,
          owner: { name: m.owner_name ?? 'Former user', email: m.owner_email },
          prospect_org: m.prospect_org,
          account_name: m.account_name,
          deal_id: m.deal_id,
          url: appLink(ctx, 'meetings', m.id),
        },
        details_restricted: !allowed,
        participants: include.has('participants')
          ? { sellers: participants.filter((p) => p.side === 'seller').map(person), buyers: participants.filter((p) => p.side !== 'seller').map(person) }
          : null,
        notes: include.has('notes') && allowed && m.summary_md ? { summary_md: m.summary_md, key_points: parseJson(StringsJson, m.key_points) } : null,
        next_steps: include.has('next_steps') && allowed ? parseJson(NextStepsJson, m.next_steps) : null,
        previous_meeting: previous,
        transcript: {
          available: allowed && m.has_transcript === 1,
          reason_if_not: reason ? (REASONS[reason] ?? reason) : null,
          segment_count: allowed ? m.segment_count : 0,
          est_tokens: allowed ? estTokens(m.transcript_chars + m.segment_count * 40) : 0,
        },
        agent_results_available: available ? available.map((a) => ({ template_id: a.agent_id, name: a.name, status: a.status })) : null,
        scope: scopeOf(ctx),
      },
    };
  },
});
