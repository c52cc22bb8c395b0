// The filters of a meeting list (list_meetings), as the SQL binds them and as conditions on
// `meetings as m` that any query over it can take: the list itself, its capped count, and each arm
// of a member's or viewer's list (meeting-arms.ts).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { MeetingsTable } from './schema.ts';
import type { Binder } from '../prepared.ts';
import { textPattern, textTest, type TextPattern } from './like.ts';

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

/**
 * The filters as the SQL binds them: emails lowercased, `q` as its pattern (like.ts), the transcript
 * flag as the column's 0/1. The conditions below only place these values, never transform them,
 * so the list and count statements can be compiled once per shape (prepared.ts `shaped`).
 */
export type BoundFilters = Omit<MeetingFilters, 'q' | 'hasTranscript'> & {
  qMatch?: TextPattern;
  hasTranscript?: 0 | 1;
  /** The only meetings `q` can match in the window, from its trigram index, as one JSON array of ids (meeting-text.ts). */
  candidatesJson?: string;
};

export function boundFilters(db: Kysely<Database>, f: MeetingFilters): BoundFilters {
  const { q, hasTranscript, participantEmails, ...rest } = f;
  const out: BoundFilters = { ...rest };
  if (participantEmails) out.participantEmails = participantEmails.map((e) => e.toLowerCase());
  if (q !== undefined) out.qMatch = textPattern(db, q);
  if (hasTranscript !== undefined) out.hasTranscript = hasTranscript ? 1 : 0;
  return out;
}

/** Which filters are present and how long their lists are are facts; what they hold are values. */
export function bindFilters(b: Binder, f: BoundFilters): BoundFilters {
  const out: BoundFilters = { from: b.value(f.from), to: b.value(f.to) };
  const optional = ['ownerId', 'dealId', 'teamId', 'status', 'meetingType', 'hasTranscript', 'candidatesJson'] as const;
  for (const name of optional) if (b.fact(f[name] !== undefined)) (out as Record<string, unknown>)[name] = b.value(f[name]);
  // The operator is part of the statement (like, glob or regex), the pattern a value.
  if (b.fact(f.qMatch?.op) !== undefined) out.qMatch = { op: f.qMatch!.op, fieldsApart: b.fact(f.qMatch!.fieldsApart), pattern: b.value(f.qMatch!.pattern) };
  for (const name of ['accountIds', 'participantEmails'] as const) {
    const list = f[name];
    if (b.fact(list === undefined ? -1 : list.length) >= 0) out[name] = list!.map((v) => b.value(v));
  }
  return out;
}

/** Whether a filter with its own index (owner, deal, team, account, a participant's email, `q`'s candidates) is present. */
export function hasIndexedFilter(f: BoundFilters): boolean {
  return f.ownerId !== undefined || f.dealId !== undefined || f.teamId !== undefined || f.accountIds !== undefined || (f.participantEmails?.length ?? 0) > 0 || f.candidatesJson !== undefined;
}

/** The filters but the window, as conditions on `m` (the window is the caller's: on `m` or on an attended arm's participants). */
export function filterConditions(orgId: string, f: BoundFilters): RawBuilder<boolean>[] {
  const c: RawBuilder<boolean>[] = [];
  if (f.ownerId !== undefined) c.push(sql`m.owner_id = ${f.ownerId}`);
  if (f.dealId !== undefined) c.push(sql`m.deal_id = ${f.dealId}`);
  if (f.teamId !== undefined) c.push(sql`m.team_id = ${f.teamId}`);
  if (f.status !== undefined) c.push(sql`m.status = ${f.status}`);
  if (f.meetingType !== undefined) c.push(sql`m.meeting_type = ${f.meetingType}`);
  if (f.hasTranscript !== undefined) c.push(sql`m.has_transcript = ${f.hasTranscript}`);
  if (f.accountIds) c.push(f.accountIds.length ? sql`m.account_id in (${sql.join(f.accountIds)})` : sql`1 = 0`);
  // The meetings those emails attended within the window, from the index on each participant's
  // copy of its meeting's start (migration 0011): a rare email reads a few entries where probing
  // every meeting of the window for it read them all (~240 ms over ten years of 100,000 meetings).
  if (f.participantEmails?.length) {
    c.push(sql`m.id in (select pe.meeting_id from participants pe where pe.org_id = ${orgId} and pe.email in (${sql.join(f.participantEmails)}) and pe.start_at >= ${f.from} and pe.start_at < ${f.to})`);
  }
  if (f.qMatch !== undefined) c.push(textMatches(f.qMatch, f.candidatesJson !== undefined));
  return c;
}

/**
 * Meeting `m`'s title or one of its participants' name, email or company holds `q` (as its
 * pattern, like.ts): tested on the meeting's one text (migration 0020), whose fields a `q` cannot
 * span, or, for a `q` holding their separator (`fieldsApart`), field by field. Both read one
 * meeting's rows through its keys, as a scalar subquery or a count: as an EXISTS (under the OR),
 * PostgreSQL may hash it instead, reading every participant of every organization once (an
 * admin's year at 100,000 meetings: 457 ms against 218 ms meeting by meeting), and a member's
 * search would then read text of meetings she cannot see. Neither is ever hashed.
 * `titleFirst` where the meeting's row is read anyway (a list of candidates, meeting-text.ts): most
 * candidates match in their title, and their one text is then not read (an admin's "acme" over a
 * year, ~2,400 candidates: 45 → 55 ms on SQLite without it). Not in a walk, which reads only the
 * window's index and each meeting's one text: the title there costs the meeting's row (an admin's
 * year on SQLite: 69 → 229 ms).
 */
export function textMatches(p: TextPattern, titleFirst = false): RawBuilder<boolean> {
  const holds = (column: string) => textTest(sql.ref(column), p);
  const joined = sql<boolean>`coalesce((select ${holds('mt.body')} from meeting_search_text mt where mt.org_id = m.org_id and mt.meeting_id = m.id), ${sql.lit(false)})`;
  if (!p.fieldsApart) return titleFirst ? sql<boolean>`(${holds('m.title')} or ${joined})` : joined;
  return sql`(${holds('m.title')} or (select count(*) from participants pq where pq.org_id = m.org_id and pq.meeting_id = m.id
      and (${holds('pq.name')} or ${holds('pq.email')} or ${holds('pq.company')})) > 0)`;
}
