// Deals as the tools read them, bounded by the access policy in SQL; keyset lists on the sort key + id.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { DealsTable } from './schema.ts';
import type { Principal } from '../../access/principal.ts';
import { dealVisible, meetingVisible, type DealRead } from '../../access/visibility.ts';
import { containsPattern } from './like.ts';
import { afterPosition, type KeysetOrder } from './keyset.ts';
import { executePlannedPerCall } from '../plan-cache.ts';

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

/** The caller's deals with their accounts, the policy read as `read` says (see DealRead). */
function base(db: Kysely<Database>, p: Principal, read: DealRead = 'walk') {
  return db
    .selectFrom('deals as d')
    .innerJoin('accounts as a', (j) => j.onRef('a.org_id', '=', 'd.org_id').onRef('a.id', '=', 'd.account_id'))
    .where('d.org_id', '=', p.orgId)
    .where(dealVisible(p, 'd', read));
}

export async function findVisibleDeal(db: Kysely<Database>, p: Principal, key: string, domain?: string): Promise<DealRow | undefined> {
  let q = base(db, p, 'probe').selectAll('d').select(['a.domain as account_domain', 'a.name as account_name']);
  q = q.where((eb) => eb.or([eb('d.id', '=', key), eb('d.crm_opportunity_id', '=', key)]));
  if (domain) q = q.where('a.domain', '=', domain);
  return q.orderBy('d.id').limit(1).executeTakeFirst();
}

/**
 * The filters, as conditions on the deal row `d` alone. What they ask of its account (a name or
 * domain) is the set of the organization's accounts that match, read once: joining each deal to
 * its account first made a search walk every deal of the status through its account's row (an
 * admin's search at 100,000 meetings: ~70 ms on SQLite). "Has an upcoming meeting" is the set of
 * deals of the scheduled meetings after now, read along the meetings' start: with "deal id is not
 * null" beside it, SQLite read every meeting that has a deal instead (~60 ms). `in` needs no such
 * test: a null id matches no deal.
 */
function conditions(p: Principal, f: DealFilters): RawBuilder<boolean>[] {
  const c: RawBuilder<boolean>[] = [];
  if (f.search) {
    const pattern = containsPattern(f.search);
    c.push(sql`(lower(d.name) like ${pattern} escape '\\' or d.account_id in (select sa.id from accounts sa where sa.org_id = ${p.orgId}
      and (lower(sa.name) like ${pattern} escape '\\' or lower(sa.domain) like ${pattern} escape '\\')))`);
  }
  if (f.accountDomain) c.push(sql`d.account_id in (select da.id from accounts da where da.org_id = ${p.orgId} and da.domain = ${f.accountDomain})`);
  if (f.ownerId) c.push(sql`d.owner_id = ${f.ownerId}`);
  if (f.teamId) c.push(sql`d.team_id = ${f.teamId}`);
  if (f.status) c.push(sql`d.status = ${f.status}`);
  if (f.stages?.length) c.push(sql`d.stage in (${sql.join(f.stages)})`);
  if (f.closeFrom) c.push(sql`d.close_date >= ${f.closeFrom}`);
  if (f.closeTo) c.push(sql`d.close_date <= ${f.closeTo}`);
  if (f.amountMin !== undefined) c.push(sql`d.amount >= ${f.amountMin}`);
  if (f.amountMax !== undefined) c.push(sql`d.amount <= ${f.amountMax}`);
  if (f.upcomingAfter !== undefined) {
    c.push(sql`d.id in (select um.deal_id from meetings um where um.org_id = ${p.orgId} and um.start_at > ${f.upcomingAfter} and um.status = 'scheduled' and ${meetingVisible(p, 'um')})`);
  }
  return c;
}

function filtered(db: Kysely<Database>, p: Principal, f: DealFilters) {
  let q = base(db, p);
  for (const c of conditions(p, f)) q = q.where(c);
  return q;
}

const SORTS: Record<DealSort, { col: 'd.close_date' | 'd.amount'; dir: KeysetOrder }> = {
  close_date_asc: { col: 'd.close_date', dir: 'asc' },
  close_date_desc: { col: 'd.close_date', dir: 'desc' },
  amount_desc: { col: 'd.amount', dir: 'desc' },
  amount_asc: { col: 'd.amount', dir: 'asc' },
};

/**
 * The filter's own bound on the sort column narrowed to the cursor, when it has one: SQLite uses
 * only one bound of a column on each side, so the keyset's own (keyset.ts) would be ignored. The
 * bounds are inclusive, so the same deals match.
 */
function within(f: DealFilters, sort: DealSort, after: readonly [string | number, string] | null): DealFilters {
  if (after === null) return f;
  const [v] = after;
  if (sort === 'close_date_desc' && f.closeTo !== undefined && typeof v === 'string') return { ...f, closeTo: f.closeTo < v ? f.closeTo : v };
  if (sort === 'close_date_asc' && f.closeFrom !== undefined && typeof v === 'string') return { ...f, closeFrom: f.closeFrom > v ? f.closeFrom : v };
  if (sort === 'amount_desc' && f.amountMax !== undefined && typeof v === 'number') return { ...f, amountMax: Math.min(f.amountMax, v) };
  if (sort === 'amount_asc' && f.amountMin !== undefined && typeof v === 'number') return { ...f, amountMin: Math.max(f.amountMin, v) };
  return f;
}

/**
 * One page in the sort's order. Planned for its values on PostgreSQL (executePlannedPerCall): the
 * linked set is a few rows for one caller and tens of thousands for another, and the plan a named
 * statement settled on after a member's calls read a viewer's page in ~60 ms instead of ~7 ms.
 */
export async function listDeals(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, after: [string | number, string] | null, limit: number): Promise<DealRow[]> {
  const { col, dir } = SORTS[sort];
  let q = filtered(db, p, within(f, sort, after)).selectAll('d').select(['a.domain as account_domain', 'a.name as account_name']);
  if (after) q = q.where(afterPosition(col, 'd.id', dir, after));
  return executePlannedPerCall(db, q.orderBy(col, dir).orderBy('d.id', dir).limit(limit));
}

/**
 * How many deals match: the deals alone, the policy read as one set (DealRead `set`), planned for
 * its values as the page is (a named statement's plan counted a viewer's deals with upcoming
 * meetings in ~960 ms on PostgreSQL, ~75 ms planned for her). The list's
 * join to each deal's account drops no deal (an import refuses a deal whose account it does not
 * hold, and no writer deletes accounts), and looking up every counted deal's account was most of
 * the count (an admin's 12,470 open deals at 100,000 meetings: ~50 ms on SQLite, ~2 ms without).
 */
export async function countDeals(db: Kysely<Database>, p: Principal, f: DealFilters): Promise<number> {
  const counted = conditions(p, f).reduce((q, c) => q.where(c), db.selectFrom('deals as d').where('d.org_id', '=', p.orgId).where(dealVisible(p, 'd', 'set')));
  const [row] = await executePlannedPerCall(db, counted.select((eb) => eb.fn.countAll<number>().as('n')));
  return Number(row?.n ?? 0);
}

export type DealMeetingStats = { count: number; last: { id: string; start_at: number } | null; next: { id: string; start_at: number } | null };

/**
 * Per deal: how many visible meetings, the latest past one and the next scheduled one. Planned for
 * its values: the plan a named statement settled on probed a viewer's attendance from the email's
 * side, every attended meeting for each meeting of the page (~50 ms on PostgreSQL, ~2 ms planned).
 */
export async function dealMeetingStats(db: Kysely<Database>, p: Principal, dealIds: string[], now: number): Promise<Map<string, DealMeetingStats>> {
  const out = new Map<string, DealMeetingStats>(dealIds.map((id) => [id, { count: 0, last: null, next: null }]));
  if (dealIds.length === 0) return out;
  const rows = await executePlannedPerCall(
    db,
    db.selectFrom('meetings as m').select(['m.id', 'm.deal_id', 'm.start_at', 'm.status']).where('m.org_id', '=', p.orgId).where('m.deal_id', 'in', dealIds).where(meetingVisible(p, 'm')),
  );
  for (const m of rows) {
    const s = out.get(m.deal_id!);
    if (!s) continue;
    s.count += 1;
    if (m.start_at <= now && m.status === 'completed' && (!s.last || m.start_at > s.last.start_at)) s.last = { id: m.id, start_at: m.start_at };
    if (m.start_at > now && m.status === 'scheduled' && (!s.next || m.start_at < s.next.start_at)) s.next = { id: m.id, start_at: m.start_at };
  }
  return out;
}

export type Stakeholder = { name: string; email: string | null; title: string | null; company: string | null; side: string; meetings_attended: number; last_seen: number };

/** People who attended the deal's visible meetings, grouped by email (or name), most active first. */
export async function dealStakeholders(db: Kysely<Database>, p: Principal, dealId: string, limit: number): Promise<{ people: Stakeholder[]; total: number }> {
  // The deal's visible meetings first (deal index), then their participants (primary key).
  const meetings = await db
    .selectFrom('meetings as m')
    .select(['m.id', 'm.start_at'])
    .where('m.org_id', '=', p.orgId)
    .where('m.deal_id', '=', dealId)
    .where('m.status', '=', 'completed')
    .where(meetingVisible(p, 'm'))
    .execute();
  const startOf = new Map(meetings.map((m) => [m.id, m.start_at]));
  const people = meetings.length
    ? await db.selectFrom('participants as pa').select(['pa.meeting_id', 'pa.name', 'pa.email', 'pa.title', 'pa.company', 'pa.side']).where('pa.org_id', '=', p.orgId).where('pa.meeting_id', 'in', [...startOf.keys()]).execute()
    : [];
  const rows = people.map((r) => ({ ...r, start_at: startOf.get(r.meeting_id) ?? 0 }));
  const byKey = new Map<string, Stakeholder>();
  for (const r of rows) {
    const key = r.email ?? `name:${r.name}`;
    const s = byKey.get(key);
    if (s) {
      s.meetings_attended += 1;
      s.last_seen = Math.max(s.last_seen, r.start_at);
    } else byKey.set(key, { name: r.name, email: r.email, title: r.title, company: r.company, side: r.side, meetings_attended: 1, last_seen: r.start_at });
  }
  const all = [...byKey.values()].sort((a, b) => b.meetings_attended - a.meetings_attended || b.last_seen - a.last_seen || a.name.localeCompare(b.name));
  return { people: all.slice(0, limit), total: all.length };
}
