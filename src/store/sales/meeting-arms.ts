// A member's or viewer's meeting list read as the merge of what the access policy lets them see:
// the meetings they own (members) and the ones they attended, each arm read in the list's order
// from its own index (meetings_owner_start; participants_email_start, migration 0011) and cut at the
// page size. A page then reads at most a page from each arm, whatever the caller's history or the
// window's width. As one predicate, "own or attended" read every such meeting in the window and
// sorted them: a member's one-year page took ~34 ms on SQLite at 100,000 meetings, a viewer's ~63 ms.
//
// The arms are the policy (access/visibility.ts meetingVisible) for these roles, not a filter on
// top of it; the tests check that both give the same meetings for every role. Managers with teams
// keep the predicate (their managed members' meetings would be an arm per member), and so does a
// list with a filter that has its own index (owner, deal, team, account, a participant's email; `q`'s
// candidates, which an admin's, a member's and a manager's lists take), which reads few rows that way.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { Principal } from '../../access/principal.ts';
import { ownersSeen } from '../../access/visibility.ts';
import { afterPosition, type KeysetOrder } from './keyset.ts';
import { filterConditions, hasIndexedFilter, type BoundFilters } from './meeting-filters.ts';

type Position = readonly [number, string] | null;

/** Whether this list is read by arms: see the module comment. Depends only on facts of a shaped statement (role, managed teams and how many members they have, filters present). */
export function readsByArms(p: Principal, f: BoundFilters): boolean {
  const owners = ownersSeen(p);
  return owners !== 'all' && owners.length <= 1 && !hasIndexedFilter(f);
}

/** Whether the policy gives this caller an own arm: a member's or a teamless manager's, not a viewer's. */
const hasOwnArm = (p: Principal) => {
  const owners = ownersSeen(p);
  return owners !== 'all' && owners.length === 1;
};

/** The caller's own meetings in the window that match, in the list's order, at most `limit`. */
function ownArm(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  let q = db.selectFrom('meetings as m').select(['m.id', 'm.start_at']).where('m.org_id', '=', p.orgId).where('m.owner_id', '=', p.userId).where('m.start_at', '>=', f.from).where('m.start_at', '<', f.to);
  for (const c of filterConditions(p.orgId, f)) q = q.where(c);
  if (after) q = q.where(afterPosition('m.start_at', 'm.id', order, after));
  return q.orderBy('m.start_at', order).orderBy('m.id', order).limit(limit);
}

/** The caller's attendance in the window, by each participant's copy of its meeting's start: distinct, since an email may appear twice in one meeting. */
function attendance(db: Kysely<Database>, p: Principal, f: BoundFilters) {
  return db
    .selectFrom('participants as pa')
    .select(['pa.meeting_id as id', 'pa.start_at'])
    .distinct()
    .where('pa.org_id', '=', p.orgId)
    .where('pa.email', '=', p.email)
    .where('pa.start_at', '>=', f.from)
    .where('pa.start_at', '<', f.to);
}

/**
 * The meetings the caller attended in the window that match, in the list's order, at most `limit`:
 * walked from the caller's attendance by start (the copy equals the meeting's own start), each
 * joined to its meeting for the filters.
 */
function attendedArm(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  let q = attendance(db, p, f)
    .innerJoin('meetings as m', (j) => j.onRef('m.org_id', '=', 'pa.org_id').onRef('m.id', '=', 'pa.meeting_id'))
    // The meeting's own start too: a copy that lags a concurrent change can then hide a meeting
    // from this arm, never bring one from outside the window.
    .where('m.start_at', '>=', f.from)
    .where('m.start_at', '<', f.to);
  for (const c of filterConditions(p.orgId, f)) q = q.where(c);
  if (after) q = q.where(afterPosition('pa.start_at', 'pa.meeting_id', order, after));
  return q.orderBy('pa.start_at', order).orderBy('pa.meeting_id', order).limit(limit);
}

/** An arm's meeting ids, as one column `id` (what the union and the page's `in` read). */
const ids = <DB, TB extends keyof DB, O extends { id: string }>(db: Kysely<Database>, arm: SelectQueryBuilder<DB, TB, O>) => db.selectFrom(arm.as('arm')).select('arm.id');

/** An arm's meetings with their starts, as `id` and `start_at`. */
const withStarts = <DB, TB extends keyof DB, O extends { id: string; start_at: number | null }>(db: Kysely<Database>, arm: SelectQueryBuilder<DB, TB, O>) =>
  db.selectFrom(arm.as('arm')).select(['arm.id', 'arm.start_at']);

/** The caller's arms: the attended arm, and a member's own (null for a viewer). */
function armsOf(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  return { attended: attendedArm(db, p, f, order, after, limit), own: hasOwnArm(p) ? ownArm(db, p, f, order, after, limit) : null };
}

/**
 * The first `limit` matches of each arm in the list's order, with their starts (`id`, `start_at`): a
 * meeting both arms hold comes twice. A first page and its capped count read them once (meetings.ts).
 */
export function armMatches(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, limit: number) {
  const { attended, own } = armsOf(db, p, f, order, null, limit);
  return own ? withStarts(db, attended).unionAll(withStarts(db, own)) : withStarts(db, attended);
}

/** Ids of at most 2 × `limit` meetings that hold the page after `after`: the page is the first `limit` of them in the list's order. */
export function armIds(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  const { attended, own } = armsOf(db, p, f, order, after, limit);
  return own ? ids(db, attended).unionAll(ids(db, own)) : ids(db, attended);
}

/**
 * How many meetings match, counting no further than cap + 1. Each arm is read no further than
 * cap + 1, and either one past the cap puts the union past it, so only when both are within it is
 * their union counted (CASE evaluates its subqueries only when reached, on both engines): exact up
 * to the cap, and over it whenever the true count is. With no filter on the meeting, the attended
 * arm reads the attendance index alone. A member at 1,000,000 meetings (2,296 own meetings in 30
 * days) counted the union of both arms' first 501 through each attended meeting's row: ~2 ms of a
 * ~2.1 ms page on SQLite, where the page alone takes ~0.2 ms at any size.
 */
export function armsCount(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, cap: number) {
  const counted = (q: ReturnType<typeof ids>) => db.selectFrom(q.as('c')).select((eb) => eb.fn.countAll<number>().as('n'));
  const byIndex = filterConditions(p.orgId, f).length === 0;
  const attended = ids(db, byIndex ? attendance(db, p, f).orderBy('pa.start_at', order).orderBy('pa.meeting_id', order).limit(cap + 1) : attendedArm(db, p, f, order, null, cap + 1));
  if (!hasOwnArm(p)) return counted(attended);
  const own = ids(db, ownArm(db, p, f, order, null, cap + 1));
  return db.selectNoFrom(
    sql<number>`case when (${counted(own)}) > ${sql.lit(cap)} or (${counted(attended)}) > ${sql.lit(cap)} then ${sql.lit(cap + 1)} else (${counted(attended.union(own))}) end`.as('n'),
  );
}
