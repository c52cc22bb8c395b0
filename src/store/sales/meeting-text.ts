// Which meetings of a list's window a `q` can match, from the trigram index over titles and
// participants: the organization's rows (migration 0016) for an admin, who sees every meeting; for
// a member or a manager, the rows of the owners they see (0017) and, tested directly, the meetings
// of other owners they attended. No index row of a meeting the caller cannot see is read and no
// such meeting's text is tested, so a search's time does not depend on what other people's
// meetings say; what else it reads (the rows of the window's first meetings for the sample, index
// structures every owner's rows share) depends on how many there are. A manager's rare text over a
// year at 100,000 meetings: ~0.3-0.4 s by the policy's predicate, ~20 ms this way, most of it his
// attendance (a 2-core Xeon). A viewer owns nothing they see: their list reads their attendance as
// it would (meeting-arms.ts).
// The list keeps to the candidates and still tests each by the text test (meeting-filters.ts
// textMatches), so a rare text reads its few matches instead of testing every meeting of the
// window (before migration 0020's one text per meeting: ~0.45 s on SQLite, ~0.65 s on PostgreSQL
// over a year of 100,000 meetings, whatever it found; ~75 and ~500 ms with it). PostgreSQL reads
// the candidates by primary key; SQLite by key or, where its planner prefers, walking the window's
// index with them as a filter, which tests the text on none of the others.
//
// A common text is left to the walk, which tests meetings in the list's order and finds its page
// and capped count among the window's first few thousand. Which one a text is, is decided in two
// bounded steps:
// 1. the sample: the window's first 200 meetings in the list's order, tested by the text test. A text
//    in 6 of them (3 %) or more is common here: the walk (cost: ~1-2 ms). For anyone but an admin,
//    the first 200 they see among the window's first 2,000 (fewer when they see few).
// 2. the probe: the rows in the index that hold the probe's trigrams of `q` (text-probe.ts), at
//    most 10,000 (titles and participants), of the organization or of the owners the caller sees.
//    Past that the text is common in that history, even if not in this window's first meetings:
//    the walk. Otherwise the meetings among them in the window are the candidates, as many as there
//    are (at most 10,000, usually a handful), with those the caller attended that match.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { Principal } from '../../access/principal.ts';
import { meetingVisible, ownersSeen } from '../../access/visibility.ts';
import { capabilitiesOf } from '../database.ts';
import type { KeysetOrder } from './keyset.ts';
import { textMatches } from './meeting-filters.ts';
import { textPattern, type TextPattern } from './like.ts';
import { indexFoldsFor, probeTrigrams } from './text-probe.ts';
import { ORG_SPAN } from '../migrations/0016-meeting-text-index.ts';
import { OWNER_SPAN, ownerScope } from '../migrations/0017-meeting-text-owners.ts';

/** How many of the window's first meetings the sample tests, and how many matches make a text common. */
export const SAMPLE_SIZE = 200;
export const COMMON_IN_SAMPLE = 6;
/** For a caller who does not see every meeting, the sample is of those they see among the window's first this many. */
export const SAMPLE_WALK = 2000;

/** At most this many index rows (the organization's, or the owners' a caller sees) are read for one `q`: past it the text is common. */
export const MAX_INDEX_ROWS = 10_000;

/** The candidates as one JSON array of meeting ids (what the list binds: one value, whatever their number), or the walk. */
export type TextCandidates = { idsJson: string; none: boolean } | 'walk';

/** A list's `q` (as the caller wrote it), its organization, window and order. */
type Search = { orgId: string; q: string; from: number; to: number; order: KeysetOrder };

/** FTS5 query: the probe's trigrams, each a quoted string (its quotes doubled), all required. */
const trigramQuery = (grams: string[]) => grams.map((g) => `"${g.replaceAll('"', '""')}"`).join(' AND ');

/** PostgreSQL: the probe's trigrams as `scope`'s GIN keys, each a field of its own (so no key spans two), as the index expressions compute theirs (migration 0016). */
const probeKeys = (scope: RawBuilder<unknown>, grams: string[]) => sql`meeting_text_keys(${scope}, variadic ${grams}::text[])`;

/** The index follows the full-text engine: FTS5 on SQLite, GIN on PostgreSQL (migration 0016). */
const isSqlite = (db: Kysely<Database>) => capabilitiesOf(db).fullText === 'fts5';

/**
 * Step 1: whether the text is in at least COMMON_IN_SAMPLE of the window's first SAMPLE_SIZE
 * meetings the caller sees. The text is tested outside the sample's LIMIT, so only on those (and
 * meeting by meeting: textMatches).
 */
async function commonInSample(db: Kysely<Database>, s: Search, match: TextPattern, p: Principal): Promise<boolean> {
  const first = (limit: number) =>
    db
      .selectFrom('meetings as m')
      .select(['m.org_id', 'm.id', 'm.title', 'm.owner_id', 'm.start_at'])
      .where('m.org_id', '=', s.orgId)
      .where('m.start_at', '>=', s.from)
      .where('m.start_at', '<', s.to)
      .orderBy('m.start_at', s.order)
      .orderBy('m.id', s.order)
      .limit(limit);
  const sample =
    ownersSeen(p) === 'all'
      ? first(SAMPLE_SIZE)
      : db.selectFrom(first(SAMPLE_WALK).as('m')).select(['m.org_id', 'm.id', 'm.title']).where(meetingVisible(p, 'm', { from: s.from, to: s.to })).orderBy('m.start_at', s.order).orderBy('m.id', s.order).limit(SAMPLE_SIZE);
  const found = await db.selectFrom(sample.as('m')).select((eb) => eb.fn.countAll<number>().as('n')).where(textMatches(match)).executeTakeFirst();
  return Number(found?.n ?? 0) >= COMMON_IN_SAMPLE;
}

/** The candidates from a JSON array of ids (null: none). */
function candidates(ids: string | null | undefined): TextCandidates {
  const idsJson = ids ?? '[]';
  return { idsJson, none: idsJson === '[]' };
}

async function sqliteProbe(db: Kysely<Database>, s: Search, grams: string[]): Promise<TextCandidates> {
  const match = trigramQuery(grams);
  // The organization's range of the index's rowids (migration 0016): its own rows, counted first
  // from the index alone, then read with their meetings' ids and starts when few enough.
  // An organization with no row yet (nothing written) takes the empty range [0, 2^40): a null bound
  // would leave FTS5 unbounded, reading every organization's rows to answer none.
  const lo = sql`coalesce((select o.id * ${sql.raw(ORG_SPAN)} from meeting_text_orgs o where o.org_id = ${s.orgId}), 0)`;
  const inRange = sql`f.rowid >= ${lo} and f.rowid < ${lo} + ${sql.raw(ORG_SPAN)}`;
  const counted = await sql<{ n: number }>`select count(*) as n from (select 1 from meeting_text f where f.meeting_text match ${match} and ${inRange} limit ${MAX_INDEX_ROWS + 1})`.execute(db);
  if (Number(counted.rows[0]?.n ?? 0) > MAX_INDEX_ROWS) return 'walk';
  const probed = await sql<{ ids: string | null }>`select json_group_array(distinct r.meeting_id) as ids from meeting_text f
      join meeting_text_rows r on r.id = f.rowid % ${sql.raw(ORG_SPAN)}
      where f.meeting_text match ${match} and ${inRange} and r.org_id = ${s.orgId} and r.start_at >= ${s.from} and r.start_at < ${s.to}`.execute(db);
  return candidates(probed.rows[0]?.ids);
}

async function postgresProbe(db: Kysely<Database>, s: Search, grams: string[]): Promise<TextCandidates> {
  // `q`'s keys as the index expressions compute theirs, by the same function (migration 0016).
  const keys = probeKeys(sql`${s.orgId}::text`, grams);
  const probed = await sql<{ n: number | string; ids: string | null }>`with raw as materialized (
      select m.id, m.start_at from meetings m
      where m.org_id = ${s.orgId} and meeting_text_keys(m.org_id, m.title) @> ${keys}
      union all
      select p.meeting_id, p.start_at from participants p
      where p.org_id = ${s.orgId} and meeting_text_keys(p.org_id, p.name, p.email, p.company) @> ${keys}
      limit ${MAX_INDEX_ROWS + 1})
    select (select count(*) from raw) as n, (select coalesce(json_agg(distinct id), '[]')::text from raw where start_at >= ${s.from} and start_at < ${s.to}) as ids`.execute(db);
  const row = probed.rows[0];
  return !row || Number(row.n) > MAX_INDEX_ROWS ? 'walk' : candidates(row.ids);
}

/**
 * The owners' rows (0017: each owner's range of meeting_text_owned, read owner by owner) that hold
 * the probe's trigrams of `q` (probeTrigrams), as a select of their index rowids (`rid`). CROSS JOIN keeps the owners
 * outside: the planner otherwise read every organization's matches first (the tests check the plan).
 */
export function sqliteOwnedRows(orgId: string, grams: string[], owners: string[]) {
  const match = trigramQuery(grams);
  return sql`select f.rowid as rid from meeting_text_owners k cross join meeting_text_owned f on f.rowid >= k.id * ${sql.raw(OWNER_SPAN)} and f.rowid < (k.id + 1) * ${sql.raw(OWNER_SPAN)}
    where k.org_id = ${orgId} and k.owner_id in (${sql.join(owners)}) and f.meeting_text_owned match ${match}`;
}

/** The owners' rows counted first from the index alone, then read with their meetings' ids and starts when few enough. */
async function sqliteOwnedProbe(db: Kysely<Database>, s: Search, grams: string[], owners: string[]): Promise<TextCandidates> {
  const rows = sqliteOwnedRows(s.orgId, grams, owners);
  const counted = await sql<{ n: number }>`select count(*) as n from (${rows} limit ${MAX_INDEX_ROWS + 1})`.execute(db);
  if (Number(counted.rows[0]?.n ?? 0) > MAX_INDEX_ROWS) return 'walk';
  const probed = await sql<{ ids: string | null }>`select json_group_array(distinct r.meeting_id) as ids from (${rows}) o
      join meeting_text_rows r on r.id = o.rid % ${sql.raw(OWNER_SPAN)}
      where r.org_id = ${s.orgId} and r.start_at >= ${s.from} and r.start_at < ${s.to}`.execute(db);
  return candidates(probed.rows[0]?.ids);
}

/** The owners' rows from the GIN indexes keyed by organization and owner (0017), owner by owner. */
async function postgresOwnedProbe(db: Kysely<Database>, s: Search, grams: string[], owners: string[]): Promise<TextCandidates> {
  // `q`'s keys for each owner, as the index expressions compute theirs (the same function and scope).
  const theirs = probeKeys(sql.raw(ownerScope('o.org_id', 'o.owner_id')), grams);
  const probed = await sql<{ n: number | string; ids: string | null }>`with o as (select ${s.orgId}::text as org_id, unnest(${owners}::text[]) as owner_id),
    raw as materialized (
      select m.id, m.start_at from o cross join lateral (
        select m.id, m.start_at from meetings m
        where m.org_id = ${s.orgId} and meeting_text_keys(${sql.raw(ownerScope('m.org_id', 'm.owner_id'))}, m.title) @> ${theirs}) m
      union all
      select p.meeting_id, p.start_at from o cross join lateral (
        select p.meeting_id, p.start_at from participants p
        where p.org_id = ${s.orgId} and meeting_text_keys(${sql.raw(ownerScope('p.org_id', 'p.owner_id'))}, p.name, p.email, p.company) @> ${theirs}) p
      limit ${MAX_INDEX_ROWS + 1})
    select (select count(*) from raw) as n, (select coalesce(json_agg(distinct id), '[]')::text from raw where start_at >= ${s.from} and start_at < ${s.to}) as ids`.execute(db);
  const row = probed.rows[0];
  return !row || Number(row.n) > MAX_INDEX_ROWS ? 'walk' : candidates(row.ids);
}

/**
 * The meetings the caller attended in the window, of owners other than `owners` (whose rows the
 * probe read), that match by the text test: read from their own attendance. CROSS JOIN keeps SQLite's
 * planner to that order (from meetings, it would test meetings the caller cannot see); PostgreSQL
 * starts from the attendance index too.
 */
async function attendedMatches(db: Kysely<Database>, s: Search, match: TextPattern, p: Principal, owners: string[]): Promise<string[]> {
  let q = db
    .selectFrom('participants as pa')
    .crossJoin('meetings as m')
    .whereRef('m.org_id', '=', 'pa.org_id')
    .whereRef('m.id', '=', 'pa.meeting_id')
    .select('m.id')
    .distinct()
    .where('pa.org_id', '=', s.orgId)
    .where('pa.email', '=', p.email)
    .where('pa.start_at', '>=', s.from)
    .where('pa.start_at', '<', s.to)
    .where('m.start_at', '>=', s.from)
    .where('m.start_at', '<', s.to);
  if (owners.length) q = q.where('m.owner_id', 'not in', owners);
  const rows = await q.where(textMatches(match)).execute();
  return rows.map((r) => r.id);
}

/**
 * The meetings in the window that `q` can match, among those the caller sees: a superset of those
 * the text test matches there (the list still applies the policy and the test). 'walk' for a text too
 * short to index or common (see the module comment).
 */
export async function textCandidates(db: Kysely<Database>, s: Search, p: Principal): Promise<TextCandidates> {
  const seen = ownersSeen(p);
  // A viewer owns nothing they see: their list reads their attendance, as this would (meeting-arms.ts).
  if (seen !== 'all' && seen.length === 0) return 'walk';
  // None: shorter than three characters, or no trigram the index folds as `q` is tested (text-probe.ts).
  const grams = probeTrigrams(s.q, await indexFoldsFor(db, s.q));
  if (grams.length === 0) return 'walk';
  // Built once for the sample and the attended meetings (a text beyond ASCII builds classes).
  const match = textPattern(db, s.q);
  if (await commonInSample(db, s, match, p)) return 'walk';
  if (seen === 'all') return isSqlite(db) ? sqliteProbe(db, s, grams) : postgresProbe(db, s, grams);
  const owned = await (isSqlite(db) ? sqliteOwnedProbe : postgresOwnedProbe)(db, s, grams, seen);
  if (owned === 'walk') return 'walk';
  const attended = await attendedMatches(db, s, match, p, seen);
  if (attended.length === 0) return owned;
  return candidates(JSON.stringify([...new Set([...(JSON.parse(owned.idsJson) as string[]), ...attended])]));
}

/** `m.id` among the candidates, given as one JSON array of ids (one bound value, whatever their number). */
export function amongCandidates(db: Kysely<Database>, idsJson: string) {
  return isSqlite(db) ? sql<boolean>`m.id in (select value from json_each(${idsJson}))` : sql<boolean>`m.id in (select jsonb_array_elements_text(${idsJson}::jsonb))`;
}
