// Deals as the tools read them, bounded by the access policy in SQL; keyset lists on the sort key + id.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { DealsTable } from './schema.ts';
import type { Principal } from '../../access/principal.ts';
import { dealVisible, meetingVisible } from '../../access/visibility.ts';
import { containsPattern } from './like.ts';
import { afterPosition, type KeysetOrder } from './keyset.ts';

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

/** The caller's deals with their accounts; `probe` for a lookup of one deal (see dealVisible). */
function base(db: Kysely<Database>, p: Principal, probe = false) {
  return db
    .selectFrom('deals as d')
    .innerJoin('accounts as a', (j) => j.onRef('a.org_id', '=', 'd.org_id').onRef('a.id', '=', 'd.account_id'))
    .where('d.org_id', '=', p.orgId)
    .where(dealVisible(p, 'd', { probe }));
}

export async function findVisibleDeal(db: Kysely<Database>, p: Principal, key: string, domain?: string): Promise<DealRow | undefined> {
  let q = base(db, p, true).selectAll('d').select(['a.domain as account_domain', 'a.name as account_name']);
  q = q.where((eb) => eb.or([eb('d.id', '=', key), eb('d.crm_opportunity_id', '=', key)]));
  if (domain) q = q.where('a.domain', '=', domain);
  return q.orderBy('d.id').limit(1).executeTakeFirst();
}

function filtered(db: Kysely<Database>, p: Principal, f: DealFilters) {
  let q = base(db, p);
  if (f.search) {
    const pattern = containsPattern(f.search);
    q = q.where(sql<boolean>`(lower(d.name) like ${pattern} escape '\\' or lower(a.name) like ${pattern} escape '\\' or lower(a.domain) like ${pattern} escape '\\')`);
  }
  if (f.ownerId) q = q.where('d.owner_id', '=', f.ownerId);
  if (f.teamId) q = q.where('d.team_id', '=', f.teamId);
  if (f.status) q = q.where('d.status', '=', f.status);
  if (f.stages?.length) q = q.where('d.stage', 'in', f.stages);
  if (f.closeFrom) q = q.where('d.close_date', '>=', f.closeFrom);
  if (f.closeTo) q = q.where('d.close_date', '<=', f.closeTo);
  if (f.amountMin !== undefined) q = q.where('d.amount', '>=', f.amountMin);
  if (f.amountMax !== undefined) q = q.where('d.amount', '<=', f.amountMax);
  if (f.accountDomain) q = q.where('a.domain', '=', f.accountDomain);
  if (f.upcomingAfter !== undefined) {
    q = q.where(sql<boolean>`d.id in (select um.deal_id from meetings um where um.deal_id is not null and um.status = 'scheduled' and um.start_at > ${f.upcomingAfter} and ${meetingVisible(p, 'um')})`);
  }
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

export async function listDeals(db: Kysely<Database>, p: Principal, f: DealFilters, sort: DealSort, after: [string | number, string] | null, limit: number): Promise<DealRow[]> {
  const { col, dir } = SORTS[sort];
  let q = filtered(db, p, within(f, sort, after)).selectAll('d').select(['a.domain as account_domain', 'a.name as account_name']);
  if (after) q = q.where(afterPosition(col, 'd.id', dir, after));
  return q.orderBy(col, dir).orderBy('d.id', dir).limit(limit).execute();
}

export async function countDeals(db: Kysely<Database>, p: Principal, f: DealFilters): Promise<number> {
  const row = await filtered(db, p, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export type DealMeetingStats = { count: number; last: { id: string; start_at: number } | null; next: { id: string; start_at: number } | null };

/** Per deal: how many visible meetings, the latest past one and the next scheduled one. */
export async function dealMeetingStats(db: Kysely<Database>, p: Principal, dealIds: string[], now: number): Promise<Map<string, DealMeetingStats>> {
  const out = new Map<string, DealMeetingStats>(dealIds.map((id) => [id, { count: 0, last: null, next: null }]));
  if (dealIds.length === 0) return out;
  const rows = await db
    .selectFrom('meetings as m')
    .select(['m.id', 'm.deal_id', 'm.start_at', 'm.status'])
    .where('m.org_id', '=', p.orgId)
    .where('m.deal_id', 'in', dealIds)
    .where(meetingVisible(p, 'm'))
    .execute();
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
