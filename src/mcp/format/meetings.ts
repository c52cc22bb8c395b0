// How a meeting looks in lists (list_meetings, get_deal): compact, with up to 8 external participants.
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { MeetingsTable } from '../../store/sales/schema.ts';
import { participantsOf } from '../../store/sales/meetings.ts';
import { accountsById, usersById } from '../../store/sales/lookups.ts';
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

export async function meetingItems(db: Kysely<Database>, ctx: ToolContext, rows: MeetingsTable[]): Promise<MeetingItem[]> {
  const orgId = ctx.principal.orgId;
  const [participants, owners, accounts] = await Promise.all([
    participantsOf(db, orgId, rows.map((r) => r.id)),
    usersById(db, orgId, rows.map((r) => r.owner_id)),
    accountsById(db, orgId, rows.map((r) => r.account_id)),
  ]);
  return rows.map((m) => {
    const external = participants.filter((p) => p.meeting_id === m.id && p.side !== 'seller');
    const owner = owners.get(m.owner_id);
    return {
      meeting_id: m.id,
      title: m.title,
      start: iso(m.start_at),
      end: iso(m.end_at),
      duration_min: Math.round((m.end_at - m.start_at) / 60_000),
      status: m.status,
      owner: { name: owner?.name ?? 'Former user', email: owner?.email ?? null },
      prospect_org: m.account_id ? (accounts.get(m.account_id)?.domain ?? null) : null,
      deal_id: m.deal_id,
      meeting_type: m.meeting_type,
      external_participants: external.slice(0, MAX_EXTERNAL).map((p) => ({ name: p.name, email: p.email, company: p.company, title: p.title })),
      external_participant_count: external.length,
      has_transcript: m.has_transcript === 1,
      has_notes: m.summary_md !== null,
      url: appLink(ctx, 'meetings', m.id),
    };
  });
}
