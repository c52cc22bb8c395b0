// The demo dataset: two organizations that share nothing, built deterministically from a seed.
// Meetings are generated and written in batches (one transaction each), so a million fits.
import type { Store } from '../store/database.ts';
import { createOrganization, findOrganizationByDomain } from '../store/organizations.ts';
import { createUser } from '../store/users.ts';
import { addTeamMember, createTeam } from '../store/teams.ts';
import { Rng } from './prng.ts';
import { planOrganization, type OrgPlan, type OrgSpec } from './plan.ts';
import { GLOBEX, NORTHWIND } from './orgs.ts';
import { AGENTS } from './agents.ts';
import { BatchWriter } from './writer.ts';
import { addMeeting, type AgentRef, type DealCall, type MeetingContext } from './meetings.ts';
import { addQualificationResults } from './qualification.ts';
import { addReports } from './reports.ts';
import type { Progress } from './progress.ts';
import { seedDemoDocuments } from '../search/index.ts';

export const DEFAULT_MEETINGS = 3000;
export const MAX_MEETINGS = 1_000_000;
const DAY = 86_400_000;
const FLUSH_EVERY = 200;

export type SeedOptions = {
  /** Meetings of Northwind Software; Globex gets a tenth (at least 20). */
  meetings?: number;
  seed?: string;
  /** "Now" for the dataset: meetings span the 12 months before and 2 weeks after it. */
  anchor?: number;
  progress?: Progress;
  /** Demo documents per organization (Northwind; Globex gets a fifth). Default 150. */
  documents?: number;
  /** The platform web app that uploaded documents link to. */
  appUrl?: string;
  /** Stops between batches (each batch is one transaction, so no batch is half-written). */
  signal?: AbortSignal;
  /**
   * Record every call. By default, meetings beyond the first DEFAULT_MEETINGS of an org are
   * recorded at BULK_RECORD_SHARE only: a transcript takes ~80 KB, so a million full ones would
   * not fit on one machine's disk.
   */
  allTranscripts?: boolean;
};

/** Share of calls with a transcript among the meetings beyond DEFAULT_MEETINGS (bulk seeds). */
export const BULK_RECORD_SHARE = 0.05;

export type SeedSummary = { organizations: { name: string; orgId: string; users: number; accounts: number; deals: number; meetings: number }[]; rows: number };

export class AlreadySeededError extends Error {}

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, Math.round(n)));

export async function isSeeded(store: Store): Promise<boolean> {
  return (await findOrganizationByDomain(store.db, NORTHWIND.domain)) !== undefined;
}

/**
 * Whether the demo dataset is absent, complete, or was cut short (a stop during the first-start
 * seed). The seed writes Globex's documents last, so their presence marks a finished run.
 */
export async function demoSeedState(store: Store): Promise<'none' | 'partial' | 'complete'> {
  if (!(await isSeeded(store))) return 'none';
  const globex = await findOrganizationByDomain(store.db, GLOBEX.domain);
  if (!globex) return 'partial';
  const doc = await store.db.selectFrom('documents').select('id').where('org_id', '=', globex.id).limit(1).executeTakeFirst();
  return doc ? 'complete' : 'partial';
}

export async function seedDemo(store: Store, options: SeedOptions = {}): Promise<SeedSummary> {
  const meetings = options.meetings ?? DEFAULT_MEETINGS;
  if (!Number.isInteger(meetings) || meetings < 10 || meetings > MAX_MEETINGS) throw new RangeError(`meetings must be a whole number from 10 to ${MAX_MEETINGS}`);
  if (await isSeeded(store)) throw new AlreadySeededError('the demo organizations already exist in this database');
  const anchor = options.anchor ?? Math.floor(Date.now() / 60_000) * 60_000;
  const seed = options.seed ?? 'agent-access-demo';
  const globexMeetings = Math.max(20, Math.round(meetings / 10));
  const total = meetings + globexMeetings;
  let done = 0;
  const tick = (n: number) => {
    done += n;
    options.progress?.(done, total);
  };
  const writer = new BatchWriter(store.db);
  const summary: SeedSummary = { organizations: [], rows: 0 };
  for (const [spec, count] of [[NORTHWIND, meetings], [GLOBEX, globexMeetings]] as const) {
    const rng = new Rng(`${seed}:${spec.key}`);
    const accounts = clamp(count / 10, 12, 50_000);
    const plan = planOrganization(rng, spec, { accounts, deals: accounts * 2 }, anchor);
    assignFixedDeals(plan, anchor);
    options.signal?.throwIfAborted();
    await writePeople(store, plan);
    const teamIdByKey = new Map(plan.teams.map((t) => [t.key, t.id]));
    for (const a of plan.accounts) writer.add('accounts', { org_id: plan.orgId, id: a.id, domain: a.domain, name: a.name, created_at: anchor - 370 * DAY });
    for (const d of plan.deals) {
      const owner = plan.users[d.ownerIdx]!;
      writer.add('deals', {
        org_id: plan.orgId, id: d.id, account_id: plan.accounts[d.accountIdx]!.id, name: d.name, owner_id: owner.id,
        team_id: owner.teamKey ? (teamIdByKey.get(owner.teamKey) ?? null) : null, stage: d.stage, status: d.status, amount: d.amount,
        currency: spec.currency, close_date: d.closeDate, crm_system: d.crmSystem, crm_opportunity_id: d.crmOpportunityId, crm_url: d.crmUrl,
        crm_custom_fields: JSON.stringify(d.customFields), created_at: anchor - 360 * DAY, updated_at: anchor - DAY,
      });
    }
    const agents = writeAgents(rng, plan, writer, teamIdByKey, anchor);
    const ctx: MeetingContext = { rng, plan, writer, anchor, teamIdByKey, agents, dealCalls: new Map<string, DealCall[]>(), recordShare: 1 };
    const fixed = addFixedMeetings(ctx, spec);
    let reported = 0;
    for (let i = fixed; i < count; i++) {
      if (i === DEFAULT_MEETINGS && !options.allTranscripts) ctx.recordShare = BULK_RECORD_SHARE;
      addMeeting(ctx);
      if ((i + 1) % FLUSH_EVERY === 0) {
        await writer.flush();
        options.signal?.throwIfAborted();
        tick(i + 1 - reported);
        reported = i + 1;
      }
    }
    await writer.flush();
    tick(count - reported);
    addQualificationResults(rng, plan, writer, agents, ctx.dealCalls);
    addReports(rng, plan, writer, anchor, agents.find((a) => a.key === 'weekly')?.id ?? null, spec.key === 'northwind' ? 12 : 4);
    await writer.flush();
    const docs = spec.key === 'northwind' ? (options.documents ?? 150) : Math.max(10, Math.round((options.documents ?? 150) / 5));
    await seedDemoDocuments(store, plan.orgId, plan.teams.map((t) => ({ id: t.id, name: t.name })), { count: docs, company: spec.name, appUrl: options.appUrl, now: anchor });
    summary.organizations.push({ name: spec.name, orgId: plan.orgId, users: plan.users.length, accounts: plan.accounts.length, deals: plan.deals.length, meetings: count });
  }
  options.progress?.(total, total);
  await store.refreshStatistics();
  summary.rows = writer.written;
  return summary;
}

async function writePeople(store: Store, plan: OrgPlan): Promise<void> {
  const db = store.db;
  await createOrganization(db, {
    id: plan.orgId,
    name: plan.spec.name,
    domains: [plan.spec.domain],
    license: { plan: 'paid', trialEndsAt: null, seats: 100 },
    // Globex restricts meeting details to participants, so the rule is exercised on demo data.
    restrictMeetingDetailsToParticipants: plan.spec.key === 'globex',
  });
  const teamIds = new Map(plan.teams.map((t) => [t.key, t.id]));
  for (const t of plan.teams) await createTeam(db, { id: t.id, orgId: plan.orgId, name: t.name, parentTeamId: t.parentKey ? (teamIds.get(t.parentKey) ?? null) : null });
  for (const u of plan.users) {
    await createUser(db, { id: u.id, orgId: plan.orgId, email: u.email, name: u.name, role: u.role, timezone: u.timezone, signupSource: 'demo_seed' });
    if (u.teamKey) await addTeamMember(db, plan.orgId, { teamId: teamIds.get(u.teamKey)!, userId: u.id, isManager: u.isManager });
  }
}

function writeAgents(rng: Rng, plan: OrgPlan, writer: BatchWriter, teamIdByKey: Map<string, string>, anchor: number): AgentRef[] {
  return AGENTS.map((spec) => {
    const ownerId = spec.ownerLocal ? (plan.users.find((u) => u.email === `${spec.ownerLocal}@${plan.spec.domain}`)?.id ?? plan.users.find((u) => u.role === 'member')!.id) : null;
    const teamId = spec.teamKey ? (teamIdByKey.get(spec.teamKey) ?? plan.teams[0]!.id) : null;
    const id = rng.id('agt', anchor - 300 * DAY);
    writer.add('agents', {
      org_id: plan.orgId, id, name: spec.name, category: spec.category, type: spec.type, methodology: spec.methodology, scope: spec.scope,
      properties: JSON.stringify(spec.properties), visibility: spec.visibility, team_id: teamId, owner_id: ownerId, is_primary: spec.primary ? 1 : 0,
      description: spec.description, created_at: anchor - 300 * DAY,
    });
    return { id, key: spec.key, teamId, ownerId, properties: spec.properties };
  });
}

/** The fixed member owns the first three deals (so the member and their manager have deals of their own). */
function assignFixedDeals(plan: OrgPlan, anchor: number): void {
  const member = plan.users.findIndex((u) => u.role === 'member');
  for (const d of plan.deals.slice(0, 3)) {
    d.ownerIdx = member;
    d.teamKey = plan.users[member]!.teamKey;
  }
  if (plan.deals[0]) {
    plan.deals[0].stage = 'negotiation';
    plan.deals[0].status = 'open';
    plan.deals[0].closeDate = new Date(anchor + 30 * DAY).toISOString().slice(0, 10);
  }
}

/** Meetings the demo accounts rely on: a two-hour call, calls the member and the viewer attended, an upcoming one. */
function addFixedMeetings(ctx: MeetingContext, spec: OrgSpec): number {
  const { plan, anchor } = ctx;
  const member = plan.users.findIndex((u) => u.role === 'member');
  const viewer = plan.users.findIndex((u) => u.role === 'viewer');
  const day = Math.floor(anchor / DAY) * DAY;
  const attendees = viewer >= 0 ? [viewer] : [];
  let n = 0;
  if (spec.key === 'northwind') {
    const account = plan.accounts[plan.deals[0]!.accountIdx]!;
    addMeeting(ctx, { title: `Technical deep dive and security review (2 hours) — ${account.name}`, durationMin: 120, startAt: day - 10 * DAY + 14 * 3_600_000, ownerIdx: member, dealIdx: 0, attendeeIdx: attendees, type: 'demo', recorded: true });
    n++;
  }
  for (let k = 0; k < 3; k++) {
    addMeeting(ctx, { startAt: day - (3 + k * 9) * DAY + 15 * 3_600_000, ownerIdx: member, dealIdx: k % 3, attendeeIdx: attendees, recorded: true });
    n++;
  }
  addMeeting(ctx, { startAt: day + 3 * DAY + 16 * 3_600_000, ownerIdx: member, dealIdx: 0, attendeeIdx: attendees, type: 'negotiation' });
  return n + 1;
}
