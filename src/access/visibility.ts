// The access policy (domain.md "Who sees what") as SQL predicates. Every repository query for
// tool data composes one of these, so a row the caller may not see never leaves the database.
import { sql, type RawBuilder } from 'kysely';
import type { Principal } from './principal.ts';

type Bool = RawBuilder<boolean>;

const col = (alias: string, name: string) => sql.ref(`${alias}.${name}`);
const FALSE: Bool = sql<boolean>`1 = 0`;

function inList(expr: RawBuilder<unknown>, values: string[]): Bool {
  if (values.length === 0) return FALSE;
  return sql<boolean>`${expr} in (${sql.join(values)})`;
}

/** A span of meeting start times, `from` inclusive, `to` exclusive (a list's window). */
export type StartWindow = { from: number; to: number };

/**
 * "Attended": the caller's email is among the meeting's participants. A list gives its window and
 * reads the attended meetings starting in it, from the index on each participant's copy of its
 * meeting's start (migration 0011); it must keep the same window on the meeting itself. Anything
 * else (one meeting, a deal's few) probes the meeting's own participants: the uncorrelated set of
 * every meeting the caller ever attended cost a viewer ~2 ms per meeting looked up at 100,000
 * meetings (7,000 attended), where the probe reads a handful of rows.
 */
function attended(p: Principal, alias: string, window?: StartWindow): Bool {
  if (window) {
    return sql<boolean>`${col(alias, 'id')} in (select pa.meeting_id from participants pa where pa.org_id = ${p.orgId} and pa.email = ${p.email}
      and pa.start_at >= ${window.from} and pa.start_at < ${window.to})`;
  }
  return sql<boolean>`exists (select 1 from participants pa where pa.org_id = ${col(alias, 'org_id')} and pa.meeting_id = ${col(alias, 'id')} and pa.email = ${p.email})`;
}

/**
 * Whose rows the caller sees because they own them (domain.md "Who sees what"): an admin every
 * owner's; a manager of teams themselves and those teams' members (sub-teams included); a member,
 * or a manager of no team, themselves; a viewer nobody's. Meetings, deals and the meeting lists'
 * arms (store/sales/meeting-arms.ts) all read this one rule.
 */
export function ownersSeen(p: Principal): 'all' | string[] {
  if (p.role === 'admin') return 'all';
  if (p.role === 'viewer') return [];
  if (p.role === 'manager' && p.managedTeamIds.length > 0) return [p.userId, ...p.managedMemberIds];
  return [p.userId];
}

/** `column` is one of `owners`: `=` for one (as the plans were measured), `in` for several. */
function ownedBy(column: RawBuilder<unknown>, owners: string[]): Bool {
  return owners.length === 1 ? sql<boolean>`${column} = ${owners[0]}` : inList(column, owners);
}

/**
 * Meetings (list and metadata): admin all; manager own + attended + managed members'; member own +
 * attended; viewer attended. A list passes its window, which it also applies to the meeting's
 * start, so "attended" reads only the attended meetings in it, not the caller's whole history.
 */
export function meetingVisible(p: Principal, alias = 'm', window?: StartWindow): Bool {
  const org = sql<boolean>`${col(alias, 'org_id')} = ${p.orgId}`;
  const owners = ownersSeen(p);
  if (owners === 'all') return org;
  const went = attended(p, alias, window);
  if (owners.length === 0) return sql<boolean>`(${org} and ${went})`;
  return sql<boolean>`(${org} and (${ownedBy(col(alias, 'owner_id'), owners)} or ${went}))`;
}

/** Whether the caller attended a meeting (for the restrict-details rule), as a selectable expression. */
export function attendedExpr(p: Principal, alias = 'm'): RawBuilder<number> {
  return sql<number>`case when ${attended(p, alias)} then 1 else 0 end`;
}

/**
 * Meeting details (notes, transcript, agent results): as the meeting itself, but when the org
 * restricts details to participants, only meetings the caller attended (admins excepted).
 */
export function meetingDetailsAllowed(p: Principal, attended: boolean): boolean {
  return p.role === 'admin' || !p.restrictMeetingDetails || attended;
}

/**
 * Ids of deals linked to meetings a non-admin sees: those they attended (their attendance index,
 * which holds each meeting's deal, migration 0018) and those they or their members own
 * (meetings_owner_deal, migration 0012); with `ownedDeals`, also the deals those owners own
 * (deals_owner_close). UNION ALL: the set only answers `in`, so duplicates cost nothing, where UNION
 * made SQLite read the owners' meetings in deal order to merge them. Bounded by the caller's own
 * activity, whatever the organization's size.
 */
function linkedDealIds(p: Principal, owners: string[], ownedDeals: boolean): RawBuilder<unknown> {
  const parts = [
    sql`select pa.deal_id from participants pa where pa.org_id = ${p.orgId} and pa.email = ${p.email} and pa.deal_id is not null`,
    ...(owners.length ? [sql`select mo.deal_id from meetings mo where mo.org_id = ${p.orgId} and ${ownedBy(sql.ref('mo.owner_id'), owners)} and mo.deal_id is not null`] : []),
    ...(owners.length && ownedDeals ? [sql`select od.id from deals od where od.org_id = ${p.orgId} and ${ownedBy(sql.ref('od.owner_id'), owners)}`] : []),
  ];
  return sql`(${sql.join(parts, sql` union all `)})`;
}

/**
 * How a deal query reads the policy, by what it reads deals for:
 * - `walk` (a page, in its sort order): the owner, from the row the walk already holds, or the
 *   linked set, hashed once.
 * - `set` (a count, but a PostgreSQL manager's: deals.ts countRead): one set, owned and linked
 *   deals together, each deal read by its key. "Owner or in the set" made the count look up the
 *   owner of every deal of the status: a member's count of open deals at 100,000 meetings took
 *   ~45 ms on SQLite, ~15 ms as one set. A page is the other way
 *   round: its walk stops after a page, and a manager's page took ~30 ms that way, ~48 ms as one set.
 * - `probe` (one deal, or each deal a page walks before it builds the set: deals.ts listDeals): its
 *   owner, then its own meetings (deal index) with the meeting policy, a few rows where the set
 *   reads the caller's whole activity (a manager's get_deal at 100,000 meetings: ~250 ms on
 *   SQLite, ~0.3 ms this way; his page's first deals ~25–30 ms through the set, ~5 ms probed).
 */
export type DealRead = 'walk' | 'set' | 'probe';

/** Deals: admin all; manager own + managed members' + linked to a visible meeting; member own + linked; viewer linked to attended. */
export function dealVisible(p: Principal, alias = 'd', read: DealRead = 'walk'): Bool {
  const org = sql<boolean>`${col(alias, 'org_id')} = ${p.orgId}`;
  const owners = ownersSeen(p);
  if (owners === 'all') return org;
  if (read === 'set') return sql<boolean>`(${org} and ${col(alias, 'id')} in ${linkedDealIds(p, owners, true)})`;
  const linked =
    read === 'probe'
      ? sql<boolean>`exists (select 1 from meetings vm where vm.org_id = ${col(alias, 'org_id')} and vm.deal_id = ${col(alias, 'id')} and ${meetingVisible(p, 'vm')})`
      : sql<boolean>`${col(alias, 'id')} in ${linkedDealIds(p, owners, false)}`;
  if (owners.length === 0) return sql<boolean>`(${org} and ${linked})`;
  return sql<boolean>`(${org} and (${ownedBy(col(alias, 'owner_id'), owners)} or ${linked}))`;
}

/** Agents: org-visible + teams the caller belongs to + own personal ones (every role). */
export function agentVisible(p: Principal, alias = 'a'): Bool {
  return sql<boolean>`(${col(alias, 'org_id')} = ${p.orgId} and (${col(alias, 'visibility')} = 'org'
    or (${col(alias, 'visibility')} = 'team' and ${inList(col(alias, 'team_id'), p.teamIds)})
    or (${col(alias, 'visibility')} = 'personal' and ${col(alias, 'owner_id')} = ${p.userId})))`;
}

/** Reports: org-visible + own; members, managers and admins add their teams'; managers add managed teams'. */
export function reportVisible(p: Principal, alias = 'r'): Bool {
  const teams = p.role === 'viewer' ? [] : [...new Set([...p.teamIds, ...(p.role === 'manager' ? p.managedTeamIds : [])])];
  return sql<boolean>`(${col(alias, 'org_id')} = ${p.orgId} and (${col(alias, 'visibility')} = 'org'
    or ${col(alias, 'owner_id')} = ${p.userId}
    or (${col(alias, 'visibility')} = 'team' and ${inList(col(alias, 'team_id'), teams)})))`;
}

/** Teams: every team of the org, except viewers, who see their own teams only. */
export function teamVisible(p: Principal, alias = 't'): Bool {
  const org = sql<boolean>`${col(alias, 'org_id')} = ${p.orgId}`;
  if (p.role !== 'viewer') return org;
  return sql<boolean>`(${org} and ${inList(col(alias, 'id'), p.teamIds)})`;
}
