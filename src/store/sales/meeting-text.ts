// Which meetings of a list's window a `q` can match, from the trigram index over titles and
// participants (migration 0016), for an admin's list (meetings.ts: others keep their own paths).
// The list keeps to the candidates and still tests each by the LIKE (meeting-filters.ts
// textMatches), so a rare text reads its few matches instead of testing every meeting of the
// window (~0.45 s on SQLite, ~0.65 s on PostgreSQL over a year of 100,000 meetings, whatever it
// found). PostgreSQL reads the candidates by primary key; SQLite by key or, where its planner
// prefers, walking the window's index with them as a filter, which tests the LIKE on none of the
// others.
//
// A common text is left to the walk, which tests meetings in the list's order and finds its page
// and capped count among the window's first few thousand. Which one a text is, is decided in two
// bounded steps:
// 1. the sample: the window's first 200 meetings in the list's order, tested by the LIKE. A text
//    in 6 of them (3 %) or more is common here: the walk (cost: ~1-2 ms).
// 2. the probe: the organization's rows in the index that hold every trigram of `q`, at most
//    10,000 (titles and participants). Past that the text is common in the organization's history,
//    even if not in this window's first meetings: the walk. Otherwise the meetings among them in the
//    window are the candidates, as many as there are (at most 10,000, usually a handful).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { capabilitiesOf } from '../database.ts';
import type { KeysetOrder } from './keyset.ts';
import { textMatches } from './meeting-filters.ts';
import { containsPattern } from './like.ts';
import { ORG_SPAN } from '../migrations/0016-meeting-text-index.ts';

/** How many of the window's first meetings the sample tests, and how many matches make a text common. */
export const SAMPLE_SIZE = 200;
export const COMMON_IN_SAMPLE = 6;

/** At most this many of the organization's index rows are read for one `q`: past it the text is common. */
export const MAX_INDEX_ROWS = 10_000;

/** The candidates as one JSON array of meeting ids (what the list binds: one value, whatever their number), or the walk. */
export type TextCandidates = { idsJson: string; none: boolean } | 'walk';

/** A list's `q` (as the caller wrote it), its organization, window and order. */
type Search = { orgId: string; q: string; from: number; to: number; order: KeysetOrder };

/** Whether the index can propose candidates for this text: it needs three characters for one trigram. */
function indexable(qLower: string): boolean {
  return [...qLower].length >= 3;
}

/** The text's distinct trigrams (characters, not bytes), as the index folds them: lowercase. */
function trigrams(qLower: string): string[] {
  const chars = [...qLower];
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  return [...grams];
}

/** FTS5 query: every trigram, each a quoted string (its quotes doubled), all required. */
const trigramQuery = (qLower: string) => trigrams(qLower).map((g) => `"${g.replaceAll('"', '""')}"`).join(' AND ');

/** The index follows the full-text engine: FTS5 on SQLite, GIN on PostgreSQL (migration 0016). */
const isSqlite = (db: Kysely<Database>) => capabilitiesOf(db).fullText === 'fts5';

/** Step 1: whether the text is in at least COMMON_IN_SAMPLE of the window's first SAMPLE_SIZE meetings. */
async function commonInSample(db: Kysely<Database>, s: Search): Promise<boolean> {
  const first = db
    .selectFrom('meetings as m')
    .select(['m.org_id', 'm.id', 'm.title'])
    .where('m.org_id', '=', s.orgId)
    .where('m.start_at', '>=', s.from)
    .where('m.start_at', '<', s.to)
    .orderBy('m.start_at', s.order)
    .orderBy('m.id', s.order)
    .limit(SAMPLE_SIZE);
  const found = await db.selectFrom(first.as('m')).select((eb) => eb.fn.countAll<number>().as('n')).where(textMatches(containsPattern(s.q))).executeTakeFirst();
  return Number(found?.n ?? 0) >= COMMON_IN_SAMPLE;
}

/** The candidates from a JSON array of ids (null: none). */
function candidates(ids: string | null | undefined): TextCandidates {
  const idsJson = ids ?? '[]';
  return { idsJson, none: idsJson === '[]' };
}

async function sqliteProbe(db: Kysely<Database>, s: Search): Promise<TextCandidates> {
  const match = trigramQuery(s.q.toLowerCase());
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

async function postgresProbe(db: Kysely<Database>, s: Search): Promise<TextCandidates> {
  // `q`'s keys as the index expressions compute theirs, by the same function (migration 0016).
  const probed = await sql<{ n: number | string; ids: string | null }>`with raw as materialized (
      select m.id, m.start_at from meetings m
      where m.org_id = ${s.orgId} and meeting_text_keys(m.org_id, m.title) @> meeting_text_keys(${s.orgId}, ${s.q.toLowerCase()})
      union all
      select p.meeting_id, p.start_at from participants p
      where p.org_id = ${s.orgId} and meeting_text_keys(p.org_id, p.name, p.email, p.company) @> meeting_text_keys(${s.orgId}, ${s.q.toLowerCase()})
      limit ${MAX_INDEX_ROWS + 1})
    select (select count(*) from raw) as n, (select coalesce(json_agg(distinct id), '[]')::text from raw where start_at >= ${s.from} and start_at < ${s.to}) as ids`.execute(db);
  const row = probed.rows[0];
  return !row || Number(row.n) > MAX_INDEX_ROWS ? 'walk' : candidates(row.ids);
}

/**
 * The meetings of the organization in the window whose title or a participant holds every trigram
 * of `q`: a superset of those the LIKE matches. 'walk' for a text too short to index or common
 * (see the module comment).
 */
export async function textCandidates(db: Kysely<Database>, s: Search): Promise<TextCandidates> {
  if (!indexable(s.q.toLowerCase())) return 'walk';
  if (await commonInSample(db, s)) return 'walk';
  return isSqlite(db) ? sqliteProbe(db, s) : postgresProbe(db, s);
}

/** `m.id` among the candidates, given as one JSON array of ids (one bound value, whatever their number). */
export function amongCandidates(db: Kysely<Database>, idsJson: string) {
  return isSqlite(db) ? sql<boolean>`m.id in (select value from json_each(${idsJson}))` : sql<boolean>`m.id in (select jsonb_array_elements_text(${idsJson}::jsonb))`;
}
