// get_meeting_transcript: one page of a meeting's transcript within a character budget, with the
// speaker roster; filter by time window, speakers, side, or text (with surrounding context).
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, maxCharsParam, meetingIdParam } from '../params.ts';
import { cursorBinding, decodePosition, encodeCursor, OffsetPosition } from '../cursor.ts';
import { Forbidden, InvalidArgument, NoTranscript, NotFound } from '../errors.ts';
import { appLink, estTokens, hms, iso, ScopeSchema, scopeOf } from '../format/common.ts';
import { findVisibleMeeting } from '../../store/sales/meetings.ts';
import { allSegments, segmentsPage, type Segment, type SegmentFilter } from '../../store/sales/transcripts.ts';
import { meetingDetailsAllowed } from '../../access/visibility.ts';
import { foldCase } from '../../store/sales/like.ts';

const offsetParam = (what: string) =>
  z.union([z.number().min(0).max(86_400), z.string().regex(/^(\d{1,2}:)?\d{1,2}:\d{2}$|^\d+$/, 'use HH:MM:SS, MM:SS or seconds')]).optional().describe(`${what}, as HH:MM:SS from the start of the recording or a number of seconds.`);

const inputSchema = z.strictObject({
  meeting_id: meetingIdParam,
  start_time: offsetParam('Window start'),
  end_time: offsetParam('Window end (exclusive)'),
  cursor: cursorParam('get_meeting_transcript'),
  max_chars: maxCharsParam(24_000, 40_000),
  speakers: z.array(z.string().min(1).max(320)).max(20).optional().describe('Only these speakers: labels, names or emails from the speakers roster.'),
  side: z.enum(['buyer', 'seller', 'all']).default('all').describe('Only the buyer side, only the seller side, or all (default).'),
  q: z.string().min(2).max(200).optional().describe('Only segments containing this text (case-insensitive), each with context_segments around it.'),
  context_segments: z.number().int().min(0).max(5).default(1).describe('With q: segments of context before and after each match (0–5, default 1).'),
});

const SegmentSchema = z.object({ i: z.number(), start_s: z.number(), end_s: z.number(), speaker: z.string(), side: z.enum(['seller', 'buyer', 'unknown']), text: z.string(), match: z.boolean().optional() });

const outputSchema = z.object({
  meeting: z.object({ meeting_id: z.string(), title: z.string(), start: z.string(), duration_min: z.number(), url: z.string() }),
  speakers: z.array(z.object({ label: z.string(), name: z.string(), email: z.string().nullable(), side: z.enum(['seller', 'buyer', 'unknown']), resolved: z.boolean(), talk_time_s: z.number() })),
  segments: z.array(SegmentSchema),
  range: z.object({ first_i: z.number().nullable(), last_i: z.number().nullable(), from: z.string().nullable(), to: z.string().nullable() }),
  total_segments: z.number(),
  matched_segments: z.number().nullable().describe('With q: how many segments matched.'),
  truncated: z.boolean().describe('true when more segments follow this page; call again with next_cursor.'),
  next_cursor: z.string().nullable(),
  est_tokens_total: z.number().describe('Estimated tokens of the whole transcript.'),
  scope: ScopeSchema,
});

function seconds(v: number | string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number') return v;
  return v.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

const REASONS: Record<string, string> = {
  not_recorded: 'it was not recorded',
  consent_declined: 'a participant declined recording',
  scheduled: 'the meeting has not happened yet',
  canceled: 'the meeting was canceled',
};

const line = (s: Segment, side: string) => `[${hms(s.start_ms / 1000)}] ${s.speaker} (${side}): ${s.text}`;
/**
 * Segments read per query: about one page at the meeting's average line length, a little over,
 * rounded up to a multiple of 32 so few distinct LIMITs reach the statement caches of either dialect
 * (both dialects write page sizes into the SQL).
 */
function fetchSize(transcriptChars: number, segmentCount: number, maxChars: number): number {
  const perLine = segmentCount > 0 ? transcriptChars / segmentCount + 32 : 100;
  const wanted = Math.ceil((maxChars / perLine) * 1.15) + 4;
  return Math.min(512, Math.max(32, Math.ceil(wanted / 32) * 32));
}

export const getMeetingTranscriptTool = defineTool({
  name: 'get_meeting_transcript',
  title: 'Get meeting transcript',
  description:
    'Returns a meeting\'s transcript one page at a time ("[00:12:03] Dana Reyes (seller): …"), within max_chars (default 24,000), with the speaker roster and talk time. Follow next_cursor until it is null to read everything. Narrow with start_time/end_time, speakers, side (buyer|seller), or q (matching segments with context). Use get_meeting first to see whether a transcript exists and how long it is. A meeting without a transcript returns a no_transcript error; use get_meeting for its notes.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Get meeting transcript'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const found = await findVisibleMeeting(db, ctx.principal, args.meeting_id);
    if (!found) throw new NotFound(`No meeting ${args.meeting_id} is visible to you.`, 'It does not exist or is outside your visibility. Use list_meetings to find meeting ids.');
    const m = found.meeting;
    if (!meetingDetailsAllowed(ctx.principal, m.attended === 1)) {
      throw new Forbidden(`The transcript of meeting ${m.id} is limited to its participants by your organization, and you did not attend.`, 'Ask a participant or an administrator; get_meeting still shows the meeting\'s metadata.');
    }
    if (m.has_transcript !== 1) {
      throw new NoTranscript(`No transcript for meeting ${m.id}: ${REASONS[m.transcript_reason ?? 'not_recorded'] ?? m.transcript_reason}.`, 'Use get_meeting for its notes and participants.');
    }
    const roster = await found.roster();
    const sideOf = new Map(roster.map((p) => [p.id, p.side]));
    const filter: SegmentFilter = {};
    const fromS = seconds(args.start_time);
    const toS = seconds(args.end_time);
    if (fromS !== undefined) filter.fromMs = fromS * 1000;
    if (toS !== undefined) filter.toMs = toS * 1000;
    if (fromS !== undefined && toS !== undefined && fromS >= toS) throw new InvalidArgument('"start_time" must be before "end_time".', 'Swap them or widen the window.');
    let wanted = roster;
    if (args.side !== 'all') wanted = wanted.filter((p) => p.side === args.side || (args.side === 'buyer' && p.side === 'unknown'));
    if (args.speakers) {
      // Ignoring case as the text filters do (like.ts foldCase): "Νικος" names "ΝΙΚΟΣ".
      const keys = args.speakers.map((s) => foldCase(s.trim().toWellFormed()));
      wanted = wanted.filter((p) => keys.includes(foldCase(p.name)) || (p.email !== null && keys.includes(foldCase(p.email))));
      if (wanted.length === 0) {
        throw new InvalidArgument(`None of the speakers ${JSON.stringify(args.speakers)} speaks in this meeting${args.side !== 'all' ? ` on the ${args.side} side` : ''}.`, `Speakers: ${roster.map((p) => p.name).join(', ')}.`);
      }
    }
    if (args.side !== 'all' || args.speakers) filter.participantIds = wanted.map((p) => p.id);

    const { cursor, ...query } = args;
    const binding = cursorBinding(ctx, 'get_meeting_transcript', query);
    const [fromIdx] = cursor ? decodePosition(binding, cursor, OffsetPosition) : [0];

    const page: { s: Segment; match: boolean | undefined; rendered: string }[] = [];
    let used = 0;
    let nextIdx: number | null = null;
    let matched: number | null = null;
    const take = (s: Segment, match: boolean | undefined): boolean => {
      const rendered = line(s, sideOf.get(s.participant_id ?? -1) ?? 'unknown');
      const cost = rendered.length + 1;
      if (page.length > 0 && used + cost > args.max_chars) {
        nextIdx = s.idx;
        return false;
      }
      used += cost;
      page.push({ s, match, rendered });
      return true;
    };
    if (args.q) {
      const all = await allSegments(db, m.org_id, m.id);
      // By case keys on both sides, as the lists match (like.ts); a lone surrogate as the lists send it.
      const needle = foldCase(args.q.toWellFormed());
      const holds = (text: string) => foldCase(text).includes(needle);
      const inFilter = (s: Segment) =>
        (filter.fromMs === undefined || s.start_ms >= filter.fromMs) && (filter.toMs === undefined || s.start_ms < filter.toMs) && (!filter.participantIds || filter.participantIds.includes(s.participant_id ?? -1));
      const hits = all.filter((s) => inFilter(s) && holds(s.text)).map((s) => s.idx);
      matched = hits.length;
      const hitSet = new Set(hits);
      const shown = new Set<number>();
      for (const h of hits) for (let k = h - args.context_segments; k <= h + args.context_segments; k++) if (k >= 0 && k < all.length) shown.add(k);
      for (const idx of [...shown].sort((a, b) => a - b)) if (idx >= fromIdx && !take(all[idx]!, hitSet.has(idx))) break;
    } else {
      let at = fromIdx;
      const fetch = fetchSize(m.transcript_chars, m.segment_count, args.max_chars);
      outer: for (;;) {
        const rows = await segmentsPage(db, m.org_id, m.id, at, filter, fetch);
        for (const s of rows) if (!take(s, undefined)) break outer;
        if (rows.length < fetch) break;
        at = rows[rows.length - 1]!.idx + 1;
      }
    }

    const segments = page.map(({ s, match }) => ({
      i: s.idx,
      start_s: Math.floor(s.start_ms / 1000),
      end_s: Math.ceil(s.end_ms / 1000),
      speaker: s.speaker,
      side: sideOf.get(s.participant_id ?? -1) ?? 'unknown',
      text: s.text,
      ...(match === undefined ? {} : { match }),
    }));
    const first = page[0]?.s;
    const last = page[page.length - 1]?.s;
    const next = nextIdx === null ? null : encodeCursor(binding, [nextIdx]);
    const header = `Transcript of "${m.title}" (${iso(m.start_at)}), ${m.segment_count} segments in all${page.length ? `; this page: segments ${first!.idx}–${last!.idx}` : '; no segment matches'}.`;
    const footer = next ? `\n[More follows: call get_meeting_transcript again with the same arguments and cursor "${next}".]` : '\n[End of transcript.]';
    const text = [header, '', ...page.map(({ rendered }) => rendered), footer].join('\n');
    return {
      text,
      structured: {
        meeting: { meeting_id: m.id, title: m.title, start: iso(m.start_at), duration_min: Math.round((m.end_at - m.start_at) / 60_000), url: appLink(ctx, 'meetings', m.id) },
        speakers: roster.map((p) => ({ label: p.name, name: p.name, email: p.email, side: p.side, resolved: p.user_id !== null || p.email !== null, talk_time_s: Math.round(p.talk_time_ms / 1000) })),
        segments,
        range: { first_i: first?.idx ?? null, last_i: last?.idx ?? null, from: first ? hms(first.start_ms / 1000) : null, to: last ? hms(last.end_ms / 1000) : null },
        total_segments: m.segment_count,
        matched_segments: matched,
        truncated: next !== null,
        next_cursor: next,
        est_tokens_total: estTokens(m.transcript_chars + m.segment_count * 40),
        scope: scopeOf(ctx),
      },
    };
  },
});
