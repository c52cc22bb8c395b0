// The access policy of domain.md ("Who sees what"), computed again here from the raw tables in
// plain TypeScript — deliberately not by calling src/access/ — so the property test compares two
// independent implementations. Loaded once per database into memory (the demo data is small).
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/store/schema.ts';

type Role = 'admin' | 'manager' | 'member' | 'viewer';

export type Snapshot = {
  /** Every id of every record kind → its organization (the demo data's ids are unique across organizations; attendance is keyed by both). */
  orgOf: Map<string, string>;
  users: { id: string; org: string; email: string; role: Role; status: string }[];
  emailsByOrg: Map<string, Set<string>>;
  meetings: { id: string; org: string; owner: string; deal: string | null }[];
  deals: { id: string; org: string; owner: string }[];
  agents: { id: string; org: string; visibility: string; team: string | null; owner: string | null }[];
  reports: { id: string; org: string; visibility: string; team: string | null; owner: string | null }[];
  documents: { id: string; org: string; visibility: string; team: string | null }[];
  teams: { id: string; org: string; parent: string | null }[];
  members: { team: string; user: string; manager: boolean }[];
  /** attendeeKey(org, meeting id) → emails of its participants (ids are unique within an org only). */
  attendees: Map<string, Set<string>>;
  restricted: Map<string, boolean>;
  /** Names, titles and domains per org, for generated search arguments. */
  words: Map<string, string[]>;
};

export const attendeeKey = (org: string, meetingId: string) => `${org}\u0000${meetingId}`;

export async function loadSnapshot(db: Kysely<Database>): Promise<Snapshot> {
  const orgOf = new Map<string, string>();
  const note = <T extends { id: string; org_id: string }>(rows: T[]) => {
    for (const r of rows) orgOf.set(r.id, r.org_id);
    return rows;
  };
  const users = note(await db.selectFrom('users').select(['id', 'org_id', 'email', 'role', 'status']).execute());
  const meetings = note(await db.selectFrom('meetings').select(['id', 'org_id', 'owner_id', 'deal_id', 'title']).execute());
  const deals = note(await db.selectFrom('deals').select(['id', 'org_id', 'owner_id', 'name']).execute());
  const agents = note(await db.selectFrom('agents').select(['id', 'org_id', 'visibility', 'team_id', 'owner_id']).execute());
  const reports = note(await db.selectFrom('reports').select(['id', 'org_id', 'visibility', 'team_id', 'owner_id', 'title']).execute());
  const documents = note(await db.selectFrom('documents').select(['id', 'org_id', 'visibility', 'team_id', 'title']).execute());
  const teams = note(await db.selectFrom('teams').select(['id', 'org_id', 'parent_team_id', 'name']).execute());
  const accounts = note(await db.selectFrom('accounts').select(['id', 'org_id', 'domain', 'name']).execute());
  note(await db.selectFrom('organizations').select(['id', 'id as org_id']).execute());
  const members = await db.selectFrom('team_members').select(['team_id', 'user_id', 'is_manager']).execute();
  const participants = await db.selectFrom('participants').select(['org_id', 'meeting_id', 'email']).execute();
  const orgs = await db.selectFrom('organizations').selectAll().execute();

  const attendees = new Map<string, Set<string>>();
  for (const p of participants) {
    if (!p.email) continue;
    const key = attendeeKey(p.org_id, p.meeting_id);
    const set = attendees.get(key) ?? new Set<string>();
    set.add(p.email);
    attendees.set(key, set);
  }
  const emailsByOrg = new Map<string, Set<string>>();
  for (const u of users) emailsByOrg.set(u.org_id, (emailsByOrg.get(u.org_id) ?? new Set()).add(u.email));
  const words = new Map<string, string[]>();
  const addWords = (org: string, ...w: string[]) => words.set(org, [...(words.get(org) ?? []), ...w]);
  for (const d of deals.slice(0, 400)) addWords(d.org_id, d.name);
  for (const a of accounts.slice(0, 400)) addWords(a.org_id, a.name, a.domain);
  for (const t of teams) addWords(t.org_id, t.name);
  for (const r of reports.slice(0, 100)) addWords(r.org_id, r.title);
  for (const d of documents.slice(0, 100)) addWords(d.org_id, d.title);
  const restricted = new Map<string, boolean>();
  for (const o of orgs as Record<string, unknown>[]) {
    const value = o.restrict_meeting_details_to_participants ?? o.restrict_meeting_details;
    restricted.set(String(o.id), value === 1 || value === true || value === '1');
  }

  return {
    orgOf,
    users: users.map((u) => ({ id: u.id, org: u.org_id, email: u.email, role: u.role as Role, status: u.status })),
    emailsByOrg,
    meetings: meetings.map((m) => ({ id: m.id, org: m.org_id, owner: m.owner_id, deal: m.deal_id })),
    deals: deals.map((d) => ({ id: d.id, org: d.org_id, owner: d.owner_id })),
    agents: agents.map((a) => ({ id: a.id, org: a.org_id, visibility: a.visibility, team: a.team_id, owner: a.owner_id })),
    reports: reports.map((r) => ({ id: r.id, org: r.org_id, visibility: r.visibility, team: r.team_id, owner: r.owner_id })),
    documents: documents.map((d) => ({ id: d.id, org: d.org_id, visibility: d.visibility, team: d.team_id })),
    teams: teams.map((t) => ({ id: t.id, org: t.org_id, parent: t.parent_team_id })),
    members: members.map((m) => ({ team: m.team_id, user: m.user_id, manager: m.is_manager === 1 })),
    attendees,
    restricted,
    words,
  };
}

export type Visibility = {
  org: string;
  meetings: Set<string>;
  /** Meetings whose notes, transcript and agent results the user may read. */
  details: Set<string>;
  deals: Set<string>;
  agents: Set<string>;
  reports: Set<string>;
  documents: Set<string>;
  teams: Set<string>;
};

/** What `userId` may see, by the written policy. */
export function visibilityOf(s: Snapshot, userId: string): Visibility {
  const user = s.users.find((u) => u.id === userId)!;
  const org = user.org;
  const role = user.role;
  const myTeams = new Set(s.members.filter((m) => m.user === userId).map((m) => m.team));
  // Managed teams, sub-teams included; only managers and admins act on them.
  const managed = new Set<string>();
  if (role === 'manager' || role === 'admin') {
    for (const m of s.members) if (m.user === userId && m.manager) managed.add(m.team);
    for (let grew = true; grew; ) {
      grew = false;
      for (const t of s.teams) if (t.org === org && t.parent && managed.has(t.parent) && !managed.has(t.id)) (managed.add(t.id), (grew = true));
    }
  }
  const managedMembers = new Set(s.members.filter((m) => managed.has(m.team)).map((m) => m.user));
  const attended = (meetingId: string) => s.attendees.get(attendeeKey(org, meetingId))?.has(user.email) ?? false;

  const meetings = new Set<string>();
  for (const m of s.meetings) {
    if (m.org !== org) continue;
    const own = m.owner === userId;
    const ok =
      role === 'admin' ? true : role === 'viewer' ? attended(m.id) : own || attended(m.id) || (role === 'manager' && managedMembers.has(m.owner));
    if (ok) meetings.add(m.id);
  }
  const details = new Set([...meetings].filter((id) => role === 'admin' || !s.restricted.get(org) || attended(id)));
  const linked = new Set(s.meetings.filter((m) => m.org === org && meetings.has(m.id) && m.deal).map((m) => m.deal!));
  const deals = new Set<string>();
  for (const d of s.deals) {
    if (d.org !== org) continue;
    const ok = role === 'admin' || linked.has(d.id) || (role !== 'viewer' && (d.owner === userId || (role === 'manager' && managedMembers.has(d.owner))));
    if (ok) deals.add(d.id);
  }
  const agents = new Set(s.agents.filter((a) => a.org === org && (a.visibility === 'org' || (a.visibility === 'team' && a.team !== null && myTeams.has(a.team)) || (a.visibility === 'personal' && a.owner === userId))).map((a) => a.id));
  const reportTeams = role === 'viewer' ? new Set<string>() : new Set([...myTeams, ...(role === 'manager' ? managed : [])]);
  const reports = new Set(s.reports.filter((r) => r.org === org && (r.visibility === 'org' || r.owner === userId || (r.visibility === 'team' && r.team !== null && reportTeams.has(r.team)))).map((r) => r.id));
  const documents = new Set(s.documents.filter((d) => d.org === org && (d.visibility === 'org' || (d.visibility === 'team' && d.team !== null && myTeams.has(d.team)))).map((d) => d.id));
  const teams = new Set(s.teams.filter((t) => t.org === org && (role !== 'viewer' || myTeams.has(t.id))).map((t) => t.id));
  return { org, meetings, details, deals, agents, reports, documents, teams };
}
