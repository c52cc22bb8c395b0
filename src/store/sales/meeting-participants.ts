// Meetings' participants as the meeting reads need them: the external participants of a list
// page, and the whole roster of one meeting. Where every statement is a round trip (PostgreSQL)
// the meeting statement gathers them as JSON (the subqueries below); elsewhere they are read by
// separate queries. Either way they come back ordered by id.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../schema.ts';
import { capabilitiesOf } from '../database.ts';
import type { ParticipantsTable } from './schema.ts';
import { shaped, type Binder } from '../prepared.ts';

export type ExternalParticipant = Pick<ParticipantsTable, 'name' | 'email' | 'company' | 'title'>;

/**
 * Whether a meeting statement gathers its participants itself (and a list's first page its capped
 * total): where every statement is a round trip (PostgreSQL: three statements a list_meetings
 * call, and the round trips were the largest share of the W1 profile) the page is one statement.
 * Where a statement costs none (SQLite), building and parsing the JSON cost more than the separate
 * queries it replaces (~200 vs ~180 µs a page of 25 on 100,000 meetings).
 */
export const inlinesParticipants = (db: Kysely<Database>) => capabilitiesOf(db).roundTrips;

/**
 * The external participants of meeting `m` as one JSON array of [id, name, email, company, title]
 * arrays (`[]` when none): a correlated subquery on the participants' primary key, for
 * PostgreSQL (inlinesParticipants). No ORDER BY in the aggregate: withExternal orders by id.
 */
export const externalParticipantsJson = sql<unknown>`(select coalesce(json_agg(json_build_array(pe.id, pe.name, pe.email, pe.company, pe.title)), '[]'::json) from participants pe where pe.org_id = m.org_id and pe.meeting_id = m.id and pe.side <> 'seller')`;

const ExternalJson = z.array(z.tuple([z.number(), z.string(), z.string().nullable(), z.string().nullable(), z.string().nullable()]));

/** Every participant of meeting `m` as one JSON array of [id, email, name, user_id, side, company, title, talk_time_ms] arrays, for PostgreSQL (inlinesParticipants). */
export const rosterJson = sql<unknown>`(select coalesce(json_agg(json_build_array(pr.id, pr.email, pr.name, pr.user_id, pr.side, pr.company, pr.title, pr.talk_time_ms)), '[]'::json) from participants pr where pr.org_id = m.org_id and pr.meeting_id = m.id)`;

const RosterJson = z.array(
  z.tuple([z.number(), z.string().nullable(), z.string(), z.string().nullable(), z.enum(['seller', 'buyer', 'unknown']), z.string().nullable(), z.string().nullable(), z.number()]),
);

/** The driver's value of a JSON column: PostgreSQL's driver parses it, SQLite returns the text. */
const jsonValue = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** A meeting's roster from rosterJson's value, parsed and checked (the repository boundary), by id. */
export function rosterFromJson(value: unknown, orgId: string, meetingId: string): ParticipantsTable[] {
  const tuples = RosterJson.parse(jsonValue(value));
  tuples.sort((a, b) => a[0] - b[0]);
  return tuples.map(([id, email, name, user_id, side, company, title, talk_time_ms]) => ({ org_id: orgId, meeting_id: meetingId, id, email, name, user_id, side, company, title, talk_time_ms }));
}

/**
 * List rows with their external participants, added to the driver's rows in place (copying a
 * row's fields into a new object, or object rest, was ~1.3 µs a row): parsed and checked from the
 * rows' JSON (the repository boundary) when the statement gathered them, else read in one query.
 */
export async function withExternal<R extends { id: string; external_json?: unknown }>(db: Kysely<Database>, orgId: string, rows: R[]): Promise<(R & { external: ExternalParticipant[] })[]> {
  const listed = rows as (R & { external: ExternalParticipant[] })[];
  if (inlinesParticipants(db)) {
    for (const row of listed) {
      const tuples = ExternalJson.parse(jsonValue(row.external_json));
      tuples.sort((a, b) => a[0] - b[0]);
      row.external = tuples.map(([, name, email, company, title]) => ({ name, email, company, title }));
      row.external_json = undefined; // nothing raw travels further (cleared, not deleted: meetings.ts listMeetings)
    }
    return listed;
  }
  const byMeeting = new Map<string, ExternalParticipant[]>();
  for (const row of listed) byMeeting.set(row.id, (row.external = []));
  if (rows.length === 0) return listed;
  for (const p of await externalParticipantsStatement.execute(db, orgId, rows.map((r) => r.id))) {
    byMeeting.get(p.meeting_id)?.push({ name: p.name, email: p.email, company: p.company, title: p.title });
  }
  return listed;
}

/** The binding of a statement over some meetings' participants: the org and each id are values, how many ids a fact. */
const bindMeetings = (b: Binder, orgId: string, meetingIds: readonly string[]): [string, readonly string[]] => [
  b.value(orgId),
  Array.from({ length: b.fact(meetingIds.length) }, (_, i) => b.value(meetingIds[i]!)),
];

const participantsStatement = shaped<[string, readonly string[]]>()(
  (db, orgId, meetingIds) => db.selectFrom('participants').selectAll().where('org_id', '=', orgId).where('meeting_id', 'in', meetingIds).orderBy('meeting_id').orderBy('id'),
  bindMeetings,
);

/** Every participant of the given meetings, by meeting and id. */
export async function participantsOf(db: Kysely<Database>, orgId: string, meetingIds: string[]): Promise<ParticipantsTable[]> {
  if (meetingIds.length === 0) return [];
  return participantsStatement.execute(db, orgId, meetingIds);
}

/**
 * The participants lists show (everyone but the seller side), by meeting and id, with only the
 * columns they show: on SQLite from participants_external alone (migration 0023). The side is
 * that index's literal, not a parameter: SQLite, whose choice of a partial index would then hang on
 * the value, prepares such a statement again each time it is bound, that is on every call.
 */
const externalParticipants = (db: Kysely<Database>, orgId: string, meetingIds: readonly string[]) =>
  db
    .selectFrom('participants')
    .select(['meeting_id', 'name', 'email', 'company', 'title'])
    .where('org_id', '=', orgId)
    .where('meeting_id', 'in', meetingIds)
    .where('side', '<>', sql.lit('seller'))
    .orderBy('meeting_id')
    .orderBy('id');

const externalParticipantsStatement = shaped<[string, readonly string[]]>()(externalParticipants, bindMeetings);

/** The statement withExternal runs where the page does not gather participants, compiled (tests read its plan). */
export const externalParticipantsQuery = (db: Kysely<Database>, orgId: string, meetingIds: readonly string[]) => externalParticipants(db, orgId, meetingIds).compile();
