// A first page of get_deals with its total: a search's from one statement over its matches, any
// other filter's walked with its count beside it (deals.ts holds the page, the count and the
// policy's reads).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Principal } from '../../access/principal.ts';
import { capabilitiesOf } from '../database.ts';
import { executePlannedPerCall } from '../plan-cache.ts';
import { countDeals, countRead, listDeals, matching, SORTS, type DealFilters, type DealRow, type DealSort } from './deals.ts';

/**
 * countDeals for a page about to be read, as a function that gives it. Where statements run side
 * by side (PostgreSQL: each on a connection of its own) it starts now, beside the page: both read
 * the caller's set, and a manager of 16's first page waited ~45 ms for one after the other, ~30
 * side by side (W1's dataset, 2-core Xeon). A count started for a page that turns out to be the
 * last is not waited for (that caller's set was small). SQLite runs one statement at a time: it
 * counts only when asked.
 */
function countDealsBeside(db: Kysely<Database>, p: Principal, f: DealFilters): () => Promise<number> {
  if (!capabilitiesOf(db).roundTrips) return () => countDeals(db, p, f);
  const started = countDeals(db, p, f);
  // Marked handled now: the page may fail first, and then no one asks. Whoever asks sees its failure.
  started.catch(() => undefined);
  return () => started;
}

/**
 * A first page of deals (`limit` of them at most), and how many match in all as a function that
 * gives it, so a caller can wait for it beside other reads (the count may still be running).
 */
export type DealsFirstPage = { rows: DealRow[]; total: () => Promise<number> };

/**
 * A first page with its total. A search reads its matches once, in one statement (searchFirstPage);
 * any other filter walks its page and counts beside it (countDealsBeside). The total of a page that
 * holds every match is its length.
 */
export async function firstDealsPage(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, limit: number): Promise<DealsFirstPage> {
  if (f.search) return searchFirstPage(db, p, f, sort, limit);
  const counted = countDealsBeside(db, p, f);
  const rows = await listDeals(db, p, f, sort, null, limit);
  return { rows, total: rows.length < limit ? async () => rows.length : counted };
}

/**
 * A search's first page and total from one pass over its matches. Walked in the sort's order, a
 * page stops early only for a common text; for a rarer one it tests every deal of the status (its
 * name through its row, and the matching accounts), and when it fills a page the count tests them
 * all again. Here the deals that match and that the caller may see (the policy read as a count
 * reads it, countRead) are gathered once with their sort key; the page is the first of them in the
 * sort's order, read with their rows and accounts, and the total is how many there are, from the
 * same snapshot. On PostgreSQL that is one connection where the page and its count held two. A
 * common text pays for sorting its matches' keys where its walk stopped early: an admin's "a"
 * (12,470 open deals at 100,000 meetings) ~35 → ~45 ms on PostgreSQL, one call at a time; the
 * other cases measured in README "get_deals' search".
 */
async function searchFirstPage(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, limit: number): Promise<DealsFirstPage> {
  const rows: (DealRow & { total_matched?: number | string | null })[] = await executePlannedPerCall(db, searchFirstPageQuery(db, p, f, sort, limit));
  const total = Number(rows[0]?.total_matched ?? 0);
  // Deleted, unlike a meeting list's count (meetings.ts listMeetings): tests compare these rows whole, and no workload reads them.
  for (const row of rows) delete row.total_matched;
  return { rows, total: async () => total };
}

/** searchFirstPage's statement (exported for the test of its SQLite plan). */
export function searchFirstPageQuery(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, limit: number) {
  const { col, dir } = SORTS[sort];
  // CROSS JOIN keeps SQLite reading the page's deals by key whatever it guesses of the page's size:
  // with the size bound and a plain join it walked every deal in the sort's order to spare the
  // final sort (an admin's "acme" by amount: ~50 → ~80 ms). The page's deals are read by their
  // whole key: ids are unique within an organization only.
  return db
    .with(
      (cte) => cte('matched').materialized(),
      () => matching(db, p, f, countRead(db, p)).select((eb) => ['d.id', eb.ref(col).as('k')]),
    )
    .with('first_page', (qb) => qb.selectFrom('matched').select('id').orderBy('k', dir).orderBy('id', dir).limit(limit))
    .selectFrom('first_page as fp')
    .crossJoin('deals as d')
    .innerJoin('accounts as a', (j) => j.onRef('a.org_id', '=', 'd.org_id').onRef('a.id', '=', 'd.account_id'))
    .where('d.org_id', '=', p.orgId)
    .whereRef('d.id', '=', 'fp.id')
    .selectAll('d')
    .select(['a.domain as account_domain', 'a.name as account_name'])
    .select((eb) => eb.selectFrom('matched').select(eb.fn.countAll<number>().as('n')).as('total_matched'))
    .orderBy(col, dir)
    .orderBy('d.id', dir);
}
