// The access policy (domain.md "Who sees what") for meetings and deals, computed in TypeScript
// from the raw tables: the oracle the store's list and lookup tests compare against.
import type { Dialect } from '../../src/store/database.ts';
import { EMAILS, seededStore, type Seeded } from '../mcp/support.ts';
import type { Principal } from '../../src/access/principal.ts';

export type RawMeeting = { id: string; start_at: number; owner_id: string; deal_id: string | null; team_id: string | null; account_id: string | null; status: string; meeting_type: string; has_transcript: number; title: string };
export type RawDeal = { id: string; owner_id: string; close_date: string };
export type Person = { name: string; email: string | null; company: string | null };
export type World = { meetings: RawMeeting[]; deals: RawDeal[]; people: Map<string, Person[]> };

export async function loadWorld(s: Seeded, orgId: string): Promise<World> {
  const db = s.store.db;
  const meetings = await db.selectFrom('meetings').select(['id', 'start_at', 'owner_id', 'deal_id', 'team_id', 'account_id', 'status', 'meeting_type', 'has_transcript', 'title']).where('org_id', '=', orgId).execute();
  const deals = await db.selectFrom('deals').select(['id', 'owner_id', 'close_date']).where('org_id', '=', orgId).execute();
  const people = new Map<string, Person[]>();
  for (const r of await db.selectFrom('participants').select(['meeting_id', 'name', 'email', 'company']).where('org_id', '=', orgId).execute()) {
    const list = people.get(r.meeting_id) ?? [];
    list.push(r);
    people.set(r.meeting_id, list);
  }
  return { meetings: meetings.map((m) => ({ ...m, start_at: Number(m.start_at), has_transcript: Number(m.has_transcript) })), deals, people };
}

export const attends = (w: World, meetingId: string, email: string) => (w.people.get(meetingId) ?? []).filter((x) => x.email === email).length;

/** Meetings: admin all; manager own + attended + managed members'; member own + attended; viewer attended. */
export function meetingVisibleTo(w: World, p: Principal, m: RawMeeting): boolean {
  if (p.role === 'admin' || attends(w, m.id, p.email) > 0) return true;
  return p.role !== 'viewer' && (m.owner_id === p.userId || (p.role === 'manager' && p.managedMemberIds.includes(m.owner_id)));
}

/** Deals: admin all; manager own + managed members' + linked to a visible meeting; member own + linked; viewer linked to attended. */
export function dealVisibleTo(w: World, p: Principal, d: RawDeal): boolean {
  if (p.role === 'admin') return true;
  if (p.role !== 'viewer' && (d.owner_id === p.userId || (p.role === 'manager' && p.managedMemberIds.includes(d.owner_id)))) return true;
  return w.meetings.some((m) => m.deal_id === d.id && meetingVisibleTo(w, p, m));
}

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
