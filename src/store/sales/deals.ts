// Deals as the tools read them, bounded by the access policy in SQL; keyset lists on the sort key + id.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { DealsTable } from './schema.ts';
import type { Principal } from '../../access/principal.ts';
import { dealVisible, meetingVisible, ownersSeen, type DealRead } from '../../access/visibility.ts';
import { textPattern, textTest } from './like.ts';
import { afterPosition, upToPosition, type KeysetOrder } from './keyset.ts';
import { executePlannedPerCall } from '../plan-cache.ts';
import { capabilitiesOf } from '../database.ts';

export type DealRow = DealsTable & { account_domain: string; account_name: string };

export type DealFilters = {
  search?: string;
  ownerId?: string;
  teamId?: string;
  status?: DealsTable['status'];
  stages?: string[];
  closeFrom?: string;
  closeTo?: string;
  amountMin?: number;
  amountMax?: number;
  upcomingAfter?: number;
  accountDomain?: string;
};

export type DealSort = 'close_date_asc' | 'close_date_desc' | 'amount_desc' | 'amount_asc';

/** One deal by its id or CRM id, with its account, if the caller may see it (the policy probed: DealRead). */
export async function findVisibleDeal(db: Kysely<Database>, p: Principal, key: string, domain?: string): Promise<DealRow | undefined> {
  let q = db
    .selectFrom('deals as d')
    .innerJoin('accounts as a', (j) => j.onRef('a.org_id', '=', 'd.org_id').onRef('a.id', '=', 'd.account_id'))
    .where('d.org_id', '=', p.orgId)
    .where(dealVisible(p, 'd', 'probe'))
    .selectAll('d').select(['a.domain as account_domain', 'a.name as account_name']);
  q = q.where((eb) => eb.or([eb('d.id', '=', key), eb('d.crm_opportunity_id', '=', key)]));
  if (domain) q = q.where('a.domain', '=', domain);
  return q.orderBy('d.id').limit(1).executeTakeFirst();
}

/**
 * The filters, as conditions on the deal row `d` alone. What they ask of its account (a name or
 * domain) is the set of the organization's accounts that match, read once: joining each deal to
 * its account first made a search walk every deal of the status through its account's row (an
 * admin's search at 100,000 meetings: ~70 ms on SQLite). "Has an upcoming meeting" is the set of
 * deals of the scheduled meetings after now, read from the index of scheduled meetings by start
 * (migration 0015): with "deal id is not null" beside it, SQLite read every meeting that has a deal
 * instead (~60 ms). `in` needs no such test: a null id matches no deal.
 *
 * `read` is how the policy is read beside them (DealRead), and so how the upcoming filter is:
 * - `walk` (a page) tests the set against the deals it walks in the sort's order and stops after a
 *   page: `(d.id || '')` keeps SQLite's planner from reading the deals through the set instead,
 *   which looked up every deal with a meeting ahead, then sorted them all (an admin's page of open
 *   deals at 100,000 meetings: ~25 ms, ~6 ms walked). PostgreSQL plans for the values
 *   (executePlannedPerCall) and measured the same with it or without, within noise;
 * - `probe` does not occur: this filter stands for the policy (filtersImplyPolicy), so its pages walk;
 * - `set` (a count) reads every match anyway and may start from the set;
 * - `null` (anyone's deals: how far a walk goes, nthPosition) takes every scheduled meeting ahead,
 *   from the index alone.
 */
function conditions(db: Kysely<Database>, p: Principal, f: DealFilters, read: DealRead | null): RawBuilder<boolean>[] {
  const c: RawBuilder<boolean>[] = [];
  if (f.search) {
    const pattern = textPattern(db, f.search);
    const holds = (column: string) => textTest(sql.ref(column), pattern);
    c.push(sql`(${holds('d.name')} or d.account_id in (select sa.id from accounts sa where sa.org_id = ${p.orgId}
      and (${holds('sa.name')} or ${holds('sa.domain')})))`);
  }
  if (f.accountDomain) c.push(sql`d.account_id in (select da.id from accounts da where da.org_id = ${p.orgId} and da.domain = ${f.accountDomain})`);
  // `!== undefined`, as filtersImplyPolicy tests it: the filter that stands for the policy is always applied.
  if (f.ownerId !== undefined) c.push(sql`d.owner_id = ${f.ownerId}`);
  if (f.teamId) c.push(sql`d.team_id = ${f.teamId}`);
  if (f.status) c.push(sql`d.status = ${f.status}`);
  if (f.stages?.length) c.push(sql`d.stage in (${sql.join(f.stages)})`);
  if (f.closeFrom) c.push(sql`d.close_date >= ${f.closeFrom}`);
  if (f.closeTo) c.push(sql`d.close_date <= ${f.closeTo}`);
  if (f.amountMin !== undefined) c.push(sql`d.amount >= ${f.amountMin}`);
  if (f.amountMax !== undefined) c.push(sql`d.amount <= ${f.amountMax}`);
  if (f.upcomingAfter !== undefined) {
    const ahead = sql`um.start_at > ${f.upcomingAfter} and um.status = 'scheduled'`;
    const seen = read === null ? sql`1 = 1` : meetingVisible(p, 'um');
    c.push(sql`${read === 'set' ? sql`d.id` : sql`(d.id || '')`} in (select um.deal_id from meetings um where um.org_id = ${p.orgId} and ${ahead} and ${seen})`);
  }
  return c;
}

/**
 * Whether every deal the filters keep is one the caller may see, so the policy need not be read
 * beside them (domain.md "Who sees what": a deal its owner's arm admits, or one linked to a meeting
 * the caller sees):
 * - the upcoming filter, read with the meeting policy: a deal with a scheduled meeting ahead that
 *   the caller may see is linked to a meeting they see (dealVisible's linked set is the deals of
 *   the meetings meetingVisible admits). Reading the policy too only cost its set: a manager of 16's
 *   page and count at 100,000 meetings took ~40 ms on SQLite and ~70 ms on PostgreSQL, ~12 and ~35
 *   without;
 * - an owner the caller sees as owner (themselves, a managed member): all their deals are admitted
 *   by the owner's arm (a manager's "owner: me": ~28 ms on SQLite, ~50 ms on PostgreSQL, ~3 and ~6 without).
 */
function filtersImplyPolicy(p: Principal, f: DealFilters): boolean {
  const owners = ownersSeen(p);
  return owners === 'all' || f.upcomingAfter !== undefined || (f.ownerId !== undefined && owners.includes(f.ownerId));
}

/**
 * The deals that match the filters, without their accounts, the policy read as `read` says
 * (DealRead), or anyone's (`null`: how far a walk goes, nthPosition).
 *
 * A probed policy is asked only of deals that pass the filters: SQLite evaluated the policy's
 * correlated probe (every meeting of the deal, ~50 µs) before a cheaper condition whatever their
 * order, even inside one `and` (a manager's deals with a meeting ahead: 666 deals probed for 8,
 * ~31 ms; ~5 ms guarded). CASE is evaluated in order. The filters also stay terms of their own,
 * which is how the planner bounds the walk with them.
 */
export function matching(db: Kysely<Database>, p: Principal, f: DealFilters, read: DealRead | null) {
  const c = conditions(db, p, f, read);
  const deals = db.selectFrom('deals as d').where('d.org_id', '=', p.orgId);
  const filtered = (q: typeof deals) => c.reduce((q, c) => q.where(c), q);
  if (read === null || filtersImplyPolicy(p, f)) return filtered(deals);
  const policy = dealVisible(p, 'd', read);
  if (read === 'probe' && c.length > 0) return filtered(deals).where(sql<boolean>`case when ${sql.join(c, sql` and `)} then ${policy} else 1 = 0 end`);
  // Otherwise the policy first: a walk's or a count's test is a lookup in a set, cheaper than a
  // search's `like` (a manager's search read every walked deal's name first, ~15 ms more on SQLite).
  return filtered(deals.where(policy));
}

/** Each sort's column and direction (keyset on it and the id). */
export const SORTS: Record<DealSort, { col: 'd.close_date' | 'd.amount'; dir: KeysetOrder }> = {
  close_date_asc: { col: 'd.close_date', dir: 'asc' },
  close_date_desc: { col: 'd.close_date', dir: 'desc' },
  amount_desc: { col: 'd.amount', dir: 'desc' },
  amount_asc: { col: 'd.amount', dir: 'asc' },
};

type Position = readonly [string | number, string];

/**
 * The filter's own bounds on the sort column narrowed to a page's ends (after the cursor, up to a
 * position), when it has them: SQLite uses only one bound of a column on each side, so the
 * keyset's own (keyset.ts) would be ignored. The bounds are inclusive, so the same deals match.
 */
function within(f: DealFilters, sort: DealSort, after: Position | null, upTo: Position | null): DealFilters {
  const out = { ...f };
  const [lowSide, highSide] = sort.endsWith('_asc') ? [after, upTo] : [upTo, after];
  const low = lowSide?.[0];
  const high = highSide?.[0];
  if (sort.startsWith('close_date')) {
    if (typeof low === 'string' && out.closeFrom !== undefined && out.closeFrom < low) out.closeFrom = low;
    if (typeof high === 'string' && out.closeTo !== undefined && out.closeTo > high) out.closeTo = high;
  } else {
    if (typeof low === 'number' && out.amountMin !== undefined) out.amountMin = Math.max(out.amountMin, low);
    if (typeof high === 'number' && out.amountMax !== undefined) out.amountMax = Math.min(out.amountMax, high);
  }
  return out;
}

/**
 * The deals of a page in the sort's order (after `after`, up to and including `upTo`, at most
 * `limit`, the policy read as `read`), then their accounts. Joined inside, each account was looked
 * up for every deal the plan read before the sort: where SQLite reads a caller's deals through
 * their set and sorts them, that was every deal of the set. Every deal has its account (imports
 * refuse one without, import-rows.ts), so the join keeps the page whole.
 */
function readPage(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, after: Position | null, upTo: Position | null, limit: number, read: DealRead): Promise<DealRow[]> {
  const { col, dir } = SORTS[sort];
  let page = matching(db, p, within(f, sort, after, upTo), read).selectAll('d');
  if (after) page = page.where(afterPosition(col, 'd.id', dir, after));
  if (upTo) page = page.where(upToPosition(col, 'd.id', dir, upTo));
  const q = db
    .selectFrom(page.orderBy(col, dir).orderBy('d.id', dir).limit(limit).as('d'))
    .innerJoin('accounts as a', (j) => j.onRef('a.org_id', '=', 'd.org_id').onRef('a.id', '=', 'd.account_id'))
    .selectAll('d')
    .select(['a.domain as account_domain', 'a.name as account_name'])
    .orderBy(col, dir)
    .orderBy('d.id', dir);
  return executePlannedPerCall(db, q);
}

/**
 * The position of the `n`th deal after `after` that matches the filters, whoever may see it, or null
 * when fewer remain. OFFSET, bounded by `n`: keyset pages never skip rows, this only measures a walk.
 */
async function nthPosition(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, after: Position | null, n: number): Promise<Position | null> {
  const { col, dir } = SORTS[sort];
  let q = matching(db, p, within(f, sort, after, null), null);
  if (after) q = q.where(afterPosition(col, 'd.id', dir, after));
  const [row] = await executePlannedPerCall(db, q.select([sql<string | number>`${sql.ref(col)}`.as('k'), 'd.id']).orderBy(col, dir).orderBy('d.id', dir).limit(1).offset(n - 1));
  return row ? [row.k, row.id] : null;
}

/** Deals a page probes per deal it needs before it hands over to the set (listDeals). */
export const PROBES_PER_DEAL = 4;

/**
 * One page in the sort's order. Planned for its values on PostgreSQL (executePlannedPerCall): the
 * linked set is a few rows for one caller and tens of thousands for another, and the plan a named
 * statement settled on after a member's calls read a viewer's page in ~60 ms instead of ~7 ms.
 *
 * A member (or a manager of no team) sees their own deals and their meetings' deals, few of an
 * organization's: their page reads them through that set (DealRead `walk`). A manager of teams and
 * a viewer may see most deals or few: the set of a manager of seven's team meetings' deals at
 * 100,000 meetings is ~23,000 index entries, and building it was most of his ~25–30 ms page on
 * SQLite. Their page first probes the deals one by one in the sort's order (`probe`: the owner,
 * then the deal's own meetings), PROBES_PER_DEAL for each deal it needs (~4 ms for that manager,
 * who sees about half), and only when those hold less than a page goes on from there with the set.
 * Not with a search: few deals match a name, so finding how far PROBES_PER_DEAL matches go walks
 * most of the deals (a viewer's search: ~110 ms read through the set, ~150 ms probed first). Nor on
 * PostgreSQL: each step is a round trip there, and its planner answers the probe from a hash of
 * every meeting of the organization that the caller may see (a viewer's page: ~50 ms through the
 * set, ~135 ms probed first). Nor when the filters imply the policy (filtersImplyPolicy): no set is
 * built then (with has_upcoming_meeting, a viewer's page ~16 ms probed first, ~11 ms walked, on
 * SQLite).
 */
export async function listDeals(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, after: Position | null, limit: number): Promise<DealRow[]> {
  const owners = ownersSeen(p);
  if (owners === 'all' || owners.length === 1 || f.search || filtersImplyPolicy(p, f) || capabilitiesOf(db).roundTrips) return readPage(db, p, f, sort, after, null, limit, 'walk');
  const bound = await nthPosition(db, p, f, sort, after, PROBES_PER_DEAL * limit);
  const probed = await readPage(db, p, f, sort, after, bound, limit, 'probe');
  if (bound === null || probed.length >= limit) return probed;
  // The steps share no snapshot: a deal moved past the bound between them would come twice.
  const seen = new Set(probed.map((d) => d.id));
  const rest = await readPage(db, p, f, sort, bound, null, limit - probed.length, 'walk');
  return [...probed, ...rest.filter((d) => !seen.has(d.id))];
}

/**
 * How many deals match: the deals alone, the policy read as countRead says (mostly as one set),
 * planned for its values as the page is (a named statement's plan counted a viewer's deals with
 * upcoming meetings in ~960 ms on PostgreSQL, ~75 ms planned for her). The list's
 * join to each deal's account drops no deal (an import refuses a deal whose account it does not
 * hold, and no writer deletes accounts), and looking up every counted deal's account was most of
 * the count (an admin's 12,470 open deals at 100,000 meetings: ~50 ms on SQLite, ~2 ms without).
 */
export async function countDeals(db: Kysely<Database>, p: Principal, f: DealFilters): Promise<number> {
  const [row] = await executePlannedPerCall(db, countQuery(db, p, f));
  return Number(row?.n ?? 0);
}

/** countDeals' statement (exported for the tests of its plans: SQLite's, migrations 0018, 0019; PostgreSQL's, countRead). */
export function countQuery(db: Kysely<Database>, p: Principal, f: DealFilters) {
  return matching(db, p, f, countRead(db, p)).select((eb) => eb.fn.countAll<number>().as('n'));
}

/**
 * How a statement that reads every match (a count, a search's matches: deal-first-page.ts) reads
 * the policy: as one set (DealRead `set`), but for a manager of teams on PostgreSQL as a walk reads
 * it, the owner from the deal's row or the linked set hashed once. PostgreSQL guesses 200 deals for
 * any such set (it cannot tell how many of its ids repeat), so it looked up each deal of a manager's
 * set by key, one by one: max.manager's 11,170 deals of every status at 100,000 meetings took
 * 52–93 ms to count that way and 23–42 ms read as a walk, where most of them are his team's own.
 * A member's set is small and the walk read every deal of the organization for it (5 → 10 ms), so
 * members keep the set; a viewer's is the linked set either way. The trade for smaller teams:
 * managers of 6–8 there counted every status faster as a walk (22–35 → 17–33 ms) and open deals,
 * the default, a little slower (13–17 → 16–19 ms); the walk reads every deal of the status, so a
 * manager of a small team in a far larger organization would pay more (not measured). SQLite's
 * planner counts its distinct ids and measured the same either way.
 */
export function countRead(db: Kysely<Database>, p: Principal): DealRead {
  const owners = ownersSeen(p);
  return capabilitiesOf(db).roundTrips && owners !== 'all' && owners.length > 1 ? 'walk' : 'set';
}
