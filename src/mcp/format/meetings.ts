// How a meeting looks in lists (list_meetings, get_deal): compact, with up to 8 external participants.
import { z } from 'zod';
import type { MeetingListRow } from '../../store/sales/meetings.ts';
import type { ToolContext } from '../define-tool.ts';
import { appLink, iso, PersonSchema } from './common.ts';

const MAX_EXTERNAL = 8;

export const MeetingItemSchema = z.object({
  meeting_id: z.string(),
  title: z.string(),
  start: z.string().describe('ISO 8601 with offset'),
  end: z.string(),
  duration_min: z.number(),
  status: z.enum(['scheduled', 'completed', 'canceled']),
  owner: PersonSchema,
  prospect_org: z.string().nullable().describe('Account domain; pass to list_meetings or get_deals as prospect_org.'),
  deal_id: z.string().nullable(),
  meeting_type: z.enum(['internal', 'external']),
  external_participants: z.array(z.object({ name: z.string(), email: z.string().nullable(), company: z.string().nullable(), title: z.string().nullable() })),
  external_participant_count: z.number(),
  has_transcript: z.boolean(),
  has_notes: z.boolean(),
  url: z.string(),
});
export type MeetingItem = z.infer<typeof MeetingItemSchema>;

export function meetingItems(ctx: ToolContext, rows: MeetingListRow[]): MeetingItem[] {
  return rows.map((m) => {
    const external = m.external;
    return {
      meeting_id: m.id,
      title: m.title,
      start: iso(m.start_at),
      end: iso(m.end_at),
      duration_min: Math.round((m.end_at - m.start_at) / 60_000),
      status: m.status,
      owner: { name: m.owner_name ?? 'Former user', email: m.owner_email },
      prospect_org: m.prospect_org,
      deal_id: m.deal_id,
      meeting_type: m.meeting_type,
      external_participants: external.slice(0, MAX_EXTERNAL),
      external_participant_count: external.length,
      has_transcript: m.has_transcript === 1,
      has_notes: m.has_notes === 1,
      url: appLink(ctx, 'meetings', m.id),
    };
  });
}
