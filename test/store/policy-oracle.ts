// The raw tables of one organization as the store's list and lookup tests read them, and the
// access policy (domain.md "Who sees what") for their meetings and deals: the answer of the
// isolation oracle (test/reliability/isolation/oracle.ts), which computes it from the raw tables
// alone (managed teams and their members included), never from src/access.
import type { Dialect } from '../../src/store/database.ts';
import { EMAILS, seededStore, type Seeded } from '../mcp/support.ts';
import type { Principal } from '../../src/access/principal.ts';
import { loadSnapshot, visibilityOf, type Snapshot, type Visibility } from '../reliability/isolation/oracle.ts';

export type RawMeeting = { id: string; start_at: number; owner_id: string; deal_id: string | null; team_id: string | null; account_id: string | null; status: string; meeting_type: string; has_transcript: number; title: string };
export type RawDeal = {
  id: string; owner_id: string; team_id: string | null; name: string; stage: string; status: string; amount: number; close_date: string;
  account_name: string; account_domain: string;
};
export type Person = { name: string; email: string | null; company: string | null };
export type World = { meetings: RawMeeting[]; deals: RawDeal[]; people: Map<string, Person[]>; snapshot: Snapshot; policy: Map<string, Visibility> };

export async function loadWorld(s: Seeded, orgId: string): Promise<World> {
  const db = s.store.db;
  const meetings = await db.selectFrom('meetings').select(['id', 'start_at', 'owner_id', 'deal_id', 'team_id', 'account_id', 'status', 'meeting_type', 'has_transcript', 'title']).where('org_id', '=', orgId).execute();
  const deals = await db
    .selectFrom('deals as d')
    .innerJoin('accounts as a', (j) => j.onRef('a.org_id', '=', 'd.org_id').onRef('a.id', '=', 'd.account_id'))
    .select(['d.id', 'd.owner_id', 'd.team_id', 'd.name', 'd.stage', 'd.status', 'd.amount', 'd.close_date', 'a.name as account_name', 'a.domain as account_domain'])
    .where('d.org_id', '=', orgId)
    .execute();
  const people = new Map<string, Person[]>();
  for (const r of await db.selectFrom('participants').select(['meeting_id', 'name', 'email', 'company']).where('org_id', '=', orgId).execute()) {
    const list = people.get(r.meeting_id) ?? [];
    list.push(r);
    people.set(r.meeting_id, list);
  }
  return {
    meetings: meetings.map((m) => ({ ...m, start_at: Number(m.start_at), has_transcript: Number(m.has_transcript) })),
    deals: deals.map((d) => ({ ...d, amount: Number(d.amount) })),
    people,
    snapshot: await loadSnapshot(db),
    policy: new Map(),
  };
}

/** What the caller may see, by the isolation oracle, once per user. */
function policyOf(w: World, p: Principal): Visibility {
  let v = w.policy.get(p.userId);
  if (!v) w.policy.set(p.userId, (v = visibilityOf(w.snapshot, p.userId)));
  return v;
}

export const attends = (w: World, meetingId: string, email: string) => (w.people.get(meetingId) ?? []).filter((x) => x.email === email).length;

/** Meetings: admin all; manager own + attended + managed members'; member own + attended; viewer attended. */
export const meetingVisibleTo = (w: World, p: Principal, m: RawMeeting): boolean => policyOf(w, p).meetings.has(m.id);

/** Deals: admin all; manager own + managed members' + linked to a visible meeting; member own + linked; viewer linked to attended. */
export const dealVisibleTo = (w: World, p: Principal, d: RawDeal): boolean => policyOf(w, p).deals.has(d.id);

export type Cast = { ada: Principal; max: Principal; mia: Principal; vic: Principal };

/**
 * The demo store, with what `extra` adds for the fixed admin, manager, member and viewer, its
 * Northwind world as the oracle reads it, and every Northwind user's principal.
 */
export async function seededWorld(dialect: Dialect, extra: (s: Seeded, cast: Cast) => Promise<void>): Promise<{ s: Seeded; world: World; principals: Principal[] }> {
  const s = await seededStore(dialect);
  const cast = { ada: await s.principal(EMAILS.ada), max: await s.principal(EMAILS.max), mia: await s.principal(EMAILS.mia), vic: await s.principal(EMAILS.vic) };
  await extra(s, cast);
  const world = await loadWorld(s, cast.ada.orgId);
  const users = await s.store.db.selectFrom('users').select('email').where('org_id', '=', cast.ada.orgId).orderBy('email').execute();
  return { s, world, principals: await Promise.all(users.map((u) => s.principal(u.email))) };
}
