// Meetings as the tools read them. Every query takes the caller's Principal and filters by the
// access policy in SQL (access/visibility.ts); lists are keyset-paginated on (start_at, id).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { MeetingsTable, ParticipantsTable } from './schema.ts';
import type { Principal } from '../../access/principal.ts';
import { attendedExpr, meetingVisible, type StartWindow } from '../../access/visibility.ts';
import { shaped, type Binder } from '../prepared.ts';
import { afterPosition, windowFrom, type KeysetOrder } from './keyset.ts';
import { bindFilters, boundFilters, filterConditions, hasIndexedFilter, type BoundFilters, type MeetingFilters } from './meeting-filters.ts';
import { armIds, armMatches, armsCount, readsByArms } from './meeting-arms.ts';
import { amongCandidates, textCandidates } from './meeting-text.ts';
import { externalParticipantsJson, inlinesParticipants, participantsOf, rosterFromJson, rosterJson, withExternal, type ExternalParticipant } from './meeting-participants.ts';

export type { MeetingFilters } from './meeting-filters.ts';

export type MeetingRow = MeetingsTable & { attended: number };

/**
 * A meeting as lists show it: the narrow columns a list item needs, with its owner and prospect
 * joined in and its external participants (everyone but the seller side, by id), no notes or
 * summaries read.
 */
export type MeetingListRow = Pick<MeetingsTable, 'id' | 'title' | 'start_at' | 'end_at' | 'status' | 'owner_id' | 'account_id' | 'deal_id' | 'meeting_type' | 'has_transcript'> & {
  has_notes: number;
  owner_name: string | null;
  owner_email: string | null;
  prospect_org: string | null;
  external: ExternalParticipant[];
};

/** A list row as the database returns it: on PostgreSQL with its external participants as one JSON array (see inlinesParticipants). */
type MeetingListDbRow = Omit<MeetingListRow, 'external'> & { external_json?: unknown };

/** One meeting as get_meeting shows it: every column, whether the caller attended, its owner and account. */
export type MeetingDetailRow = MeetingRow & { owner_name: string | null; owner_email: string | null; prospect_org: string | null; account_name: string | null };

/** Joins the owner (`u`) and the account (`a`) of `meetings as m`, by primary key; either may be absent. */
function withOwnerAndAccount(q: ReturnType<typeof meetingsFrom>) {
  return q
    .leftJoin('users as u', (j) => j.onRef('u.org_id', '=', 'm.org_id').onRef('u.id', '=', 'm.owner_id'))
    .leftJoin('accounts as a', (j) => j.onRef('a.org_id', '=', 'm.org_id').onRef('a.id', '=', 'm.account_id'));
}

/** Selects MeetingListRow's columns of a query over `meetings as m`, but its participants (withExternal adds them). */
function listColumns(db: Kysely<Database>, q: ReturnType<typeof meetingsFrom>) {
  const columns = withOwnerAndAccount(q)
    .select(['m.id', 'm.title', 'm.start_at', 'm.end_at', 'm.status', 'm.owner_id', 'm.account_id', 'm.deal_id', 'm.meeting_type', 'm.has_transcript'])
    .select(sql<number>`case when m.summary_md is null then 0 else 1 end`.as('has_notes'))
    .select(['u.name as owner_name', 'u.email as owner_email', 'a.domain as prospect_org']);
  return inlinesParticipants(db) ? columns.select(externalParticipantsJson.as('external_json')) : columns;
}

/** The caller's meetings as `m`; a list passes its window (see meetingVisible) and must keep it on `m.start_at`. */
const meetingsFrom = (db: Kysely<Database>, p: Principal, window?: StartWindow) =>
  db.selectFrom('meetings as m').where('m.org_id', '=', p.orgId).where(meetingVisible(p, 'm', window));

/** A list's meetings by the policy's predicate: visible, in the window, matching the filters (see meeting-arms.ts for the other way). */
function filtered(db: Kysely<Database>, p: Principal, f: BoundFilters) {
  let q = meetingsFrom(db, p, { from: f.from, to: f.to })
    .where('m.start_at', '>=', f.from)
    .where('m.start_at', '<', f.to);
  for (const c of filterConditions(p.orgId, f)) q = q.where(c);
  return f.candidatesJson === undefined ? q : q.where(amongCandidates(db, f.candidatesJson));
}

/** The principal as the visibility predicate binds it: ids and email are values; the role and the size of the managed set shape the SQL. */
function bindPrincipal(b: Binder, p: Principal): Principal {
  return {
    ...p,
    orgId: b.value(p.orgId),
    userId: b.value(p.userId),
    email: b.value(p.email),
    role: b.fact(p.role),
    managedTeamIds: b.fact(p.managedTeamIds.length) > 0 ? p.managedTeamIds : [],
    managedMemberIds: Array.from({ length: b.fact(p.managedMemberIds.length) }, (_, i) => b.value(p.managedMemberIds[i]!)),
  };
}

/** How many meetings match, counting no further than cap + 1, in the list's own order (see listMeetings). */
function cappedCount(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, cap: number) {
  if (readsByArms(p, f)) return armsCount(db, p, f, order, cap);
  const capped = filtered(db, p, f).select(sql<number>`1`.as('one')).orderBy('m.start_at', order).orderBy('m.id', order).limit(cap + 1);
  return db.selectFrom(capped.as('c')).select((eb) => eb.fn.countAll<number>().as('n'));
}

type ListArgs = [Principal, BoundFilters, KeysetOrder, readonly [number, string] | null, number, number | null];

/**
 * A first page with a `q` and its capped count on PostgreSQL, from one walk: the first cap + 1
 * matches in the list's order (each arm's, when read by arms), materialized; the page is the first
 * `limit` of them (never more than the cap), the count how many distinct meetings they are. As a
 * page and a count of their own, each tested the text on the meetings it walked, so a text with
 * fewer matches than a page was tested over the whole window twice (a viewer's year of
 * attendance, or an admin's walk). A page without a `q` keeps its own walk: its rows are read in
 * order from the index, and the count reads the index alone.
 */
function buildCountedList(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, limit: number, cap: number) {
  const matches = readsByArms(p, f)
    ? armMatches(db, p, f, order, cap + 1)
    : filtered(db, p, f).select(['m.id', 'm.start_at']).orderBy('m.start_at', order).orderBy('m.id', order).limit(cap + 1);
  const dir = sql.raw(order);
  const withMatches = db.with((cte) => cte('capped').materialized(), () => matches);
  // The same `meetings as m` listColumns reads; the CTE is only named in the SQL below.
  const page = listColumns(db, withMatches.selectFrom('meetings as m').where('m.org_id', '=', p.orgId) as unknown as ReturnType<typeof meetingsFrom>)
    // By id: a meeting both arms hold comes twice, and its attendance's copy of its start may lag
    // its own for a moment (meeting-arms.ts); twice on the page it would cut the page short.
    .where(sql<boolean>`m.id in (select paged.id from (select id, ${sql.raw(order === 'desc' ? 'max' : 'min')}(start_at) as start_at from capped group by id order by 2 ${dir}, id ${dir} limit ${sql.lit(limit)}) paged)`)
    .select(sql<number>`(select count(distinct id) from capped)`.as('total_capped'));
  return page.orderBy('m.start_at', order).orderBy('m.id', order).limit(limit);
}

function buildList(db: Kysely<Database>, ...[p, f, order, after, limit, countCap]: ListArgs) {
  if (countCap !== null && after === null && limit <= countCap && f.qMatch !== undefined && inlinesParticipants(db)) return buildCountedList(db, p, f, order, limit, countCap);
  let q: ReturnType<typeof listColumns>;
  if (readsByArms(p, f)) q = listColumns(db, db.selectFrom('meetings as m').where('m.org_id', '=', p.orgId).where('m.id', 'in', armIds(db, p, f, order, after, limit)));
  else {
    q = listColumns(db, filtered(db, p, f));
    if (after) q = q.where(afterPosition('m.start_at', 'm.id', order, after));
  }
  q = q.orderBy('m.start_at', order).orderBy('m.id', order).limit(limit);
  // An uncorrelated scalar subquery, run once per statement; its own `meetings as m` shadows the outer one.
  return countCap !== null && inlinesParticipants(db) ? q.select(cappedCount(db, p, f, order, countCap).as('total_capped')) : q;
}

// The page size and the cap are facts: both dialects write them into the SQL (literal-limit.ts).
const bindList = (b: Binder, ...[p, f, order, after, limit, countCap]: ListArgs): ListArgs => [
  bindPrincipal(b, p), bindFilters(b, f), b.fact(order), b.fact(after !== null) ? [b.value(after![0]), b.value(after![1])] : null, b.fact(limit), b.fact(countCap),
];

// Without a filter that has its own index, each shape walks meetings_start or, read by arms, one
// index per arm, whatever the values: PostgreSQL's custom plans would only cost planning time
// (plan-cache.ts). W1 runs this.
const listStatement = shaped<ListArgs>()(buildList, bindList, { plan: 'once' });

/**
 * A list with an owner, deal, team, account or participant-email filter, or an admin's `q` candidates
 * (meeting-text.ts: PostgreSQL reads them by primary key): which rows to read first
 * (the filter's, or a member's or viewer's attendance) depends on how rare each is, so PostgreSQL
 * plans it for its values on every call. Generic plans guessed one row for each and read a viewer's
 * 7,000 attended meetings first: 250 ms where 0.7 ms would do for a buyer's email, past the 10 s
 * timeout for a seller's, ~560 ms for an owner.
 */
const listByValueStatement = shaped<ListArgs>()(buildList, bindList, { plan: 'per-call' });

const countStatement = shaped<[Principal, BoundFilters, KeysetOrder, number]>()(
  (db, p, f, order, cap) => cappedCount(db, p, f, order, cap),
  (b, p, f, order, cap) => [bindPrincipal(b, p), bindFilters(b, f), b.fact(order), b.fact(cap)],
);

/** The statement listMeetings runs for a list without a `q`'s candidates, compiled (tests read its plan). */
export function listQuery(db: Kysely<Database>, p: Principal, f: MeetingFilters, order: KeysetOrder, after: [number, string] | null, limit: number, countCap: number | null) {
  return buildList(db, p, boundFilters(db, f), order, after, limit, countCap).compile();
}

/** The capped count listMeetings runs when the page did not gather it, compiled (tests read its plan). */
export function listCountQuery(db: Kysely<Database>, p: Principal, f: MeetingFilters, order: KeysetOrder, cap: number) {
  return cappedCount(db, p, boundFilters(db, f), order, cap).compile();
}

export type MeetingListPage = {
  rows: MeetingListRow[];
  /** How many meetings match, counted no further than the cap: null beyond it, and when no cap was given. */
  total: number | null;
};

/**
 * One page of the caller's meetings with their external participants and, with `countCap` (on a
 * first page: `after` null), how many match in all, counting no further than the cap. On
 * PostgreSQL one statement gathers all three (inlinesParticipants). The capped rows are read in
 * the list's own order, so both engines walk the same index range the page came from: without it
 * PostgreSQL chose a sequential scan (LIMIT makes it look cheap) that read ~6,300 rows to find 501
 * recent ones, 1.3 ms instead of ~0.2 ms. An admin's `q` rare in the window is read from its
 * candidates (meeting-text.ts): none answers at once; otherwise the list keeps to them.
 */
export async function listMeetings(
  db: Kysely<Database>,
  p: Principal,
  f: MeetingFilters,
  order: KeysetOrder,
  after: [number, string] | null,
  limit: number,
  countCap: number | null = null,
): Promise<MeetingListPage> {
  // A count is of the whole window, so only a page without one is narrowed to its cursor.
  const bound = boundFilters(db, countCap === null ? { ...f, ...windowFrom(f, order, after) } : f);
  // Candidates from what the caller sees only (meeting-text.ts): a list of them reads by id; a
  // common text keeps the caller's own path (the walk, the arms).
  if (bound.qMatch !== undefined) {
    const candidates = await textCandidates(db, { orgId: p.orgId, q: f.q!, from: bound.from, to: bound.to, order }, p);
    if (candidates !== 'walk' && candidates.none) return { rows: [], total: countCap === null ? null : 0 };
    if (candidates !== 'walk') bound.candidatesJson = candidates.idsJson;
  }
  const rows: (MeetingListDbRow & { total_capped?: number | string | undefined })[] = await (hasIndexedFilter(bound) ? listByValueStatement : listStatement).execute(db, p, bound, order, after, limit, countCap);
  const inlineCount = rows[0]?.total_capped;
  // Cleared, not deleted: deleting makes each driver row a dictionary object (~0.8 KB more, slower to read).
  if (inlineCount !== undefined) for (const row of rows) row.total_capped = undefined;
  const listed = await withExternal(db, p.orgId, rows);
  if (countCap === null) return { rows: listed, total: null };
  let n: number;
  if (after === null && rows.length < limit) n = rows.length; // every match is on this page
  else if (inlineCount !== undefined) n = Number(inlineCount);
  else n = Number((await countStatement.execute(db, p, bound, order, countCap))[0]?.n ?? 0);
  return { rows: listed, total: n > countCap ? null : n };
}

/** What a transcript page needs of its meeting: no notes or summaries (wide columns). */
export type TranscriptMeetingRow = Pick<MeetingsTable, 'id' | 'org_id' | 'title' | 'start_at' | 'end_at' | 'has_transcript' | 'transcript_reason' | 'transcript_chars' | 'segment_count'> & { attended: number };

const visibleMeetingStatement = shaped<[Principal, string]>()(
  (db, p, id) => {
    const q = meetingsFrom(db, p)
      .select(['m.id', 'm.org_id', 'm.title', 'm.start_at', 'm.end_at', 'm.has_transcript', 'm.transcript_reason', 'm.transcript_chars', 'm.segment_count'])
      .select(attendedExpr(p, 'm').as('attended'))
      .where('m.id', '=', id);
    return inlinesParticipants(db) ? q.select(rosterJson.as('roster_json')) : q;
  },
  (b, p, id) => [bindPrincipal(b, p), b.value(id)],
);

/**
 * One meeting if the caller may see it, with whether the caller attended it, and `roster()`, its
 * participants by id (get_meeting_transcript): gathered by the same statement on PostgreSQL
 * (inlinesParticipants), read only when asked for elsewhere, so a refused call reads none.
 */
export async function findVisibleMeeting(
  db: Kysely<Database>,
  p: Principal,
  id: string,
): Promise<{ meeting: TranscriptMeetingRow; roster: () => Promise<ParticipantsTable[]> } | undefined> {
  const [row] = await visibleMeetingStatement.execute(db, p, id);
  if (!row) return undefined;
  if (!('roster_json' in row)) return { meeting: row, roster: () => participantsOf(db, row.org_id, [row.id]) };
  const { roster_json, ...meeting } = row;
  const roster = rosterFromJson(roster_json, row.org_id, row.id);
  return { meeting, roster: async () => roster };
}

/** One meeting if the caller may see it, in one query with its owner and account (get_meeting). */
export async function findVisibleMeetingDetail(db: Kysely<Database>, p: Principal, id: string): Promise<MeetingDetailRow | undefined> {
  return withOwnerAndAccount(meetingsFrom(db, p).where('m.id', '=', id))
    .selectAll('m')
    .select(attendedExpr(p, 'm').as('attended'))
    .select(['u.name as owner_name', 'u.email as owner_email', 'a.domain as prospect_org', 'a.name as account_name'])
    .executeTakeFirst();
}

/** What agent results and qualification results show of a meeting: no notes or summaries. */
export type MeetingRefRow = Pick<MeetingsTable, 'id' | 'title' | 'start_at' | 'status' | 'has_transcript'> & { attended: number };

/** Visible meetings among the given ids (others are silently absent). */
export async function findVisibleMeetings(db: Kysely<Database>, p: Principal, ids: string[]): Promise<MeetingRefRow[]> {
  if (ids.length === 0) return [];
  return meetingsFrom(db, p)
    .select(['m.id', 'm.title', 'm.start_at', 'm.status', 'm.has_transcript'])
    .select(attendedExpr(p, 'm').as('attended'))
    .where('m.id', 'in', ids)
    .execute();
}

/**
 * Visible meetings of a deal, keyset on (start_at, id); `kind` splits past (newest first, only
 * completed ones with `completedOnly`) from upcoming (scheduled, soonest first).
 */
export async function meetingsOfDeal(
  db: Kysely<Database>,
  p: Principal,
  dealId: string,
  kind: { upcomingAfter: number } | { pastBefore: number; completedOnly?: boolean },
  after: [number, string] | null,
  limit: number,
): Promise<(MeetingListRow & { attended: number })[]> {
  let q = listColumns(db, meetingsFrom(db, p).where('m.deal_id', '=', dealId)).select(attendedExpr(p, 'm').as('attended'));
  if ('upcomingAfter' in kind) {
    q = q.where('m.start_at', '>', kind.upcomingAfter).where('m.status', '=', 'scheduled');
    return withExternal(db, p.orgId, await q.orderBy('m.start_at', 'asc').orderBy('m.id', 'asc').limit(limit).execute());
  }
  q = q.where('m.start_at', '<=', kind.pastBefore);
  if (kind.completedOnly) q = q.where('m.status', '=', 'completed');
  if (after) q = q.where(afterPosition('m.start_at', 'm.id', 'desc', after));
  return withExternal(db, p.orgId, await q.orderBy('m.start_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute());
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
