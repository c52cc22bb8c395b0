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
// list with a filter that has its own index (owner, deal, team, account, a participant's email),
// which reads few rows that way.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { Principal } from '../../access/principal.ts';
import { afterPosition, type KeysetOrder } from './keyset.ts';
import { filterConditions, hasIndexedFilter, type BoundFilters } from './meeting-filters.ts';

type Position = readonly [number, string] | null;

/** Whether this list is read by arms: see the module comment. Depends only on facts of a shaped statement (role, managed teams, filters present). */
export function readsByArms(p: Principal, f: BoundFilters): boolean {
  const plain = p.role === 'member' || p.role === 'viewer' || (p.role === 'manager' && p.managedTeamIds.length === 0);
  return plain && !hasIndexedFilter(f);
}

/** The caller's own meetings in the window that match, in the list's order, at most `limit`. */
function ownArm(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  let q = db.selectFrom('meetings as m').select('m.id').where('m.org_id', '=', p.orgId).where('m.owner_id', '=', p.userId).where('m.start_at', '>=', f.from).where('m.start_at', '<', f.to);
  for (const c of filterConditions(p.orgId, f)) q = q.where(c);
  if (after) q = q.where(afterPosition('m.start_at', 'm.id', order, after));
  return q.orderBy('m.start_at', order).orderBy('m.id', order).limit(limit);
}

/**
 * The meetings the caller attended in the window that match, in the list's order, at most `limit`:
 * walked from the caller's attendance by start (the copy equals the meeting's own start), each
 * joined to its meeting for the filters. Distinct, since an email may appear twice in one meeting.
 */
function attendedArm(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  let q = db
    .selectFrom('participants as pa')
    .innerJoin('meetings as m', (j) => j.onRef('m.org_id', '=', 'pa.org_id').onRef('m.id', '=', 'pa.meeting_id'))
    .select(['pa.meeting_id as id', 'pa.start_at'])
    .distinct()
    .where('pa.org_id', '=', p.orgId)
    .where('pa.email', '=', p.email)
    .where('pa.start_at', '>=', f.from)
    .where('pa.start_at', '<', f.to)
    // The meeting's own start too: a copy that lags a concurrent change can then hide a meeting
    // from this arm, never bring one from outside the window.
    .where('m.start_at', '>=', f.from)
    .where('m.start_at', '<', f.to);
  for (const c of filterConditions(p.orgId, f)) q = q.where(c);
  if (after) q = q.where(afterPosition('pa.start_at', 'pa.meeting_id', order, after));
  return q.orderBy('pa.start_at', order).orderBy('pa.meeting_id', order).limit(limit);
}

function arms(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  const attended = db.selectFrom(attendedArm(db, p, f, order, after, limit).as('arm')).select('arm.id');
  if (p.role === 'viewer') return [attended];
  return [attended, db.selectFrom(ownArm(db, p, f, order, after, limit).as('arm')).select('arm.id')];
}

/** Ids of at most 2 × `limit` meetings that hold the page after `after`: the page is the first `limit` of them in the list's order. */
export function armIds(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, after: Position, limit: number) {
  const [first, ...rest] = arms(db, p, f, order, after, limit);
  return rest.reduce((all, arm) => all.unionAll(arm), first!);
}

/**
 * How many meetings match, counting no further than cap + 1: the distinct ids of each arm's first
 * cap + 1. Exact up to the cap (every arm was read whole), and over it whenever the true count is.
 */
export function armsCount(db: Kysely<Database>, p: Principal, f: BoundFilters, order: KeysetOrder, cap: number) {
  const [first, ...rest] = arms(db, p, f, order, null, cap + 1);
  const distinct = rest.reduce((all, arm) => all.union(arm), first!);
  return db.selectFrom(distinct.as('c')).select((eb) => eb.fn.countAll<number>().as('n'));
}
