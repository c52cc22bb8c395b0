// Meetings as the tools read them. Every query takes the caller's Principal and filters by the
// access policy in SQL (access/visibility.ts); lists are keyset-paginated on (start_at, id).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { MeetingsTable, ParticipantsTable } from './schema.ts';
import type { Principal } from '../../access/principal.ts';
import { attendedExpr, meetingVisible } from '../../access/visibility.ts';
import { containsPattern, ilike } from './like.ts';

export type MeetingFilters = {
  from: number;
  to: number;
  ownerId?: string;
  participantEmails?: string[];
  accountIds?: string[];
  dealId?: string;
  teamId?: string;
  status?: MeetingsTable['status'];
  meetingType?: 'internal' | 'external';
  hasTranscript?: boolean;
  q?: string;
};

export type MeetingRow = MeetingsTable & { attended: number };

function filtered(db: Kysely<Database>, p: Principal, f: MeetingFilters) {
  let q = db
    .selectFrom('meetings as m')
    .where('m.org_id', '=', p.orgId)
    .where(meetingVisible(p, 'm'))
    .where('m.start_at', '>=', f.from)
    .where('m.start_at', '<', f.to);
  if (f.ownerId) q = q.where('m.owner_id', '=', f.ownerId);
  if (f.dealId) q = q.where('m.deal_id', '=', f.dealId);
  if (f.teamId) q = q.where('m.team_id', '=', f.teamId);
  if (f.status) q = q.where('m.status', '=', f.status);
  if (f.meetingType) q = q.where('m.meeting_type', '=', f.meetingType);
  if (f.hasTranscript !== undefined) q = q.where('m.has_transcript', '=', f.hasTranscript ? 1 : 0);
  if (f.accountIds) q = f.accountIds.length ? q.where('m.account_id', 'in', f.accountIds) : q.where(sql<boolean>`1 = 0`);
  // Participant conditions are correlated EXISTS: they probe one meeting's few participants
  // through the primary key instead of scanning every participant of the org.
  if (f.participantEmails?.length) {
    const emails = f.participantEmails.map((e) => e.toLowerCase());
    q = q.where(sql<boolean>`exists (select 1 from participants pe where pe.org_id = m.org_id and pe.meeting_id = m.id and pe.email in (${sql.join(emails)}))`);
  }
  if (f.q) {
    const pattern = containsPattern(f.q);
    q = q.where((eb) =>
      eb.or([
        ilike('m.title', f.q!),
        sql<boolean>`exists (select 1 from participants pq where pq.org_id = m.org_id and pq.meeting_id = m.id and (lower(pq.name) like ${pattern} escape '\\' or lower(pq.email) like ${pattern} escape '\\' or lower(pq.company) like ${pattern} escape '\\'))`,
      ]),
    );
  }
  return q;
}

export async function listMeetings(db: Kysely<Database>, p: Principal, f: MeetingFilters, order: 'desc' | 'asc', after: [number, string] | null, limit: number): Promise<MeetingsTable[]> {
  let q = filtered(db, p, f).selectAll('m');
  if (after) {
    const [at, id] = after;
    q = order === 'desc'
      ? q.where((eb) => eb.or([eb('m.start_at', '<', at), eb.and([eb('m.start_at', '=', at), eb('m.id', '<', id)])]))
      : q.where((eb) => eb.or([eb('m.start_at', '>', at), eb.and([eb('m.start_at', '=', at), eb('m.id', '>', id)])]));
  }
  return q.orderBy('m.start_at', order).orderBy('m.id', order).limit(limit).execute();
}

export async function countMeetings(db: Kysely<Database>, p: Principal, f: MeetingFilters): Promise<number> {
  const row = await filtered(db, p, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One meeting if the caller may see it, with whether the caller attended it. */
export async function findVisibleMeeting(db: Kysely<Database>, p: Principal, id: string): Promise<MeetingRow | undefined> {
  return db
    .selectFrom('meetings as m')
    .selectAll('m')
    .select(attendedExpr(p, 'm').as('attended'))
    .where('m.org_id', '=', p.orgId)
    .where('m.id', '=', id)
    .where(meetingVisible(p, 'm'))
    .executeTakeFirst();
}

/** Visible meetings among the given ids (others are silently absent). */
export async function findVisibleMeetings(db: Kysely<Database>, p: Principal, ids: string[]): Promise<MeetingRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('meetings as m')
    .selectAll('m')
    .select(attendedExpr(p, 'm').as('attended'))
    .where('m.org_id', '=', p.orgId)
    .where('m.id', 'in', ids)
    .where(meetingVisible(p, 'm'))
    .execute();
}

/** Visible meetings of a deal, newest first, keyset on (start_at, id); `kind` splits past from upcoming. */
export async function meetingsOfDeal(
  db: Kysely<Database>,
  p: Principal,
  dealId: string,
  kind: { upcomingAfter: number } | { pastBefore: number },
  after: [number, string] | null,
  limit: number,
): Promise<MeetingRow[]> {
  let q = db
    .selectFrom('meetings as m')
    .selectAll('m')
    .select(attendedExpr(p, 'm').as('attended'))
    .where('m.org_id', '=', p.orgId)
    .where('m.deal_id', '=', dealId)
    .where(meetingVisible(p, 'm'));
  if ('upcomingAfter' in kind) {
    q = q.where('m.start_at', '>', kind.upcomingAfter).where('m.status', '=', 'scheduled');
    return q.orderBy('m.start_at', 'asc').orderBy('m.id', 'asc').limit(limit).execute();
  }
  q = q.where('m.start_at', '<=', kind.pastBefore);
  if (after) q = q.where((eb) => eb.or([eb('m.start_at', '<', after[0]), eb.and([eb('m.start_at', '=', after[0]), eb('m.id', '<', after[1])])]));
  return q.orderBy('m.start_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
}

/** The latest earlier visible meeting with the same account (for "previous meeting notes"). */
export async function previousMeeting(db: Kysely<Database>, p: Principal, m: MeetingsTable): Promise<MeetingRow | undefined> {
  if (!m.account_id) return undefined;
  return db
    .selectFrom('meetings as m')
    .selectAll('m')
    .select(attendedExpr(p, 'm').as('attended'))
    .where('m.org_id', '=', p.orgId)
    .where('m.account_id', '=', m.account_id)
    .where('m.start_at', '<', m.start_at)
    .where('m.status', '=', 'completed')
    .where(meetingVisible(p, 'm'))
    .orderBy('m.start_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function participantsOf(db: Kysely<Database>, orgId: string, meetingIds: string[]): Promise<ParticipantsTable[]> {
  if (meetingIds.length === 0) return [];
  return db.selectFrom('participants').selectAll().where('org_id', '=', orgId).where('meeting_id', 'in', meetingIds).orderBy('meeting_id').orderBy('id').execute();
}
