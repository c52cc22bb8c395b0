// One generated meeting with everything hanging off it: participants, transcript, AI notes and
// the per-meeting agent results. Rows go straight into the BatchWriter.
import type { Rng } from './prng.ts';
import type { OrgPlan, PlanDeal, PlanUser } from './plan.ts';
import { isoDate } from './plan.ts';
import { generateTranscript, type Segment, type Speaker } from './transcript.ts';
import { CALL_TITLES, CALL_TYPES_BY_STAGE, COMPETITORS, INTERNAL_TITLES, PRODUCT, type CallType } from './vocabulary.ts';
import { SCORECARD_TEXT } from './agents.ts';
import type { BatchWriter } from './writer.ts';
import type { MeetingsTable, ParticipantsTable } from '../store/sales/schema.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

export type AgentRef = { id: string; key: string; teamId: string | null; ownerId: string | null; properties: { key: string; title: string; max_score: number | null }[] };

/** What qualification results later need to know about a deal's recorded calls. */
export type DealCall = { meetingId: string; startAt: number; quotes: { quote: string; speaker: string; side: string; start_s: number }[] };

export type MeetingContext = {
  rng: Rng;
  plan: OrgPlan;
  writer: BatchWriter;
  anchor: number;
  teamIdByKey: Map<string, string>;
  agents: AgentRef[];
  dealCalls: Map<string, DealCall[]>;
  /** Share of calls recorded (with a transcript); below 1 for bulk benchmark seeds, to bound disk use. */
  recordShare: number;
};

export type MeetingOverrides = { title?: string; durationMin?: number; startAt?: number; ownerIdx?: number; dealIdx?: number; attendeeIdx?: number[]; type?: CallType; recorded?: boolean };

function businessTime(rng: Rng, anchor: number): number {
  const day = Math.floor((anchor - 365 * DAY) / DAY) + rng.int(0, 379);
  let ms = day * DAY;
  const weekday = new Date(ms).getUTCDay();
  if (weekday === 0) ms += DAY;
  if (weekday === 6) ms += 2 * DAY;
  return ms + rng.int(26, 71) * 15 * MINUTE; // 06:30–17:45 UTC, in quarter hours
}

function evidence(rng: Rng, segments: Segment[], side: 'seller' | 'buyer' | 'any') {
  const pool = side === 'any' ? segments : segments.filter((s) => s.side === side);
  if (pool.length === 0) return [];
  return rng.sample(pool, 2).map((s) => ({ quote: s.text.length > 240 ? `${s.text.slice(0, 237)}...` : s.text, speaker: s.speaker, side: s.side, start_s: Math.floor(s.startMs / 1000) }));
}

export function addMeeting(ctx: MeetingContext, o: MeetingOverrides = {}): void {
  const { rng, plan, anchor } = ctx;
  const internal = o.dealIdx === undefined && rng.chance(0.08);
  const deal: PlanDeal | null = internal ? null : plan.deals[o.dealIdx ?? rng.int(0, plan.deals.length - 1)]!;
  const sellers = plan.users.filter((u) => u.role === 'member' || u.role === 'manager');
  let owner: PlanUser;
  if (o.ownerIdx !== undefined) owner = plan.users[o.ownerIdx]!;
  else if (deal && rng.chance(0.85)) owner = plan.users[deal.ownerIdx]!;
  else owner = rng.pick(sellers);
  const startAt = o.startAt ?? businessTime(rng, anchor);
  const durationMin = o.durationMin ?? rng.weighted([[30, 45], [45, 25], [60, 28], [90, 2]]);
  const endAt = startAt + durationMin * MINUTE;
  const status: MeetingsTable['status'] = startAt > anchor ? 'scheduled' : o.recorded || !rng.chance(0.04) ? 'completed' : 'canceled';
  const type: CallType | 'internal' = internal ? 'internal' : (o.type ?? rng.weighted(CALL_TYPES_BY_STAGE[deal!.stage]));
  const account = deal ? plan.accounts[deal.accountIdx]! : null;
  const id = rng.id('mtg', startAt);

  // Participants: the owner, sometimes colleagues (viewers attend as solutions engineers), buyers.
  const people: Omit<ParticipantsTable, 'talk_time_ms'>[] = [];
  const addUser = (u: PlanUser) => {
    if (people.some((x) => x.user_id === u.id)) return;
    people.push({ org_id: plan.orgId, meeting_id: id, id: people.length + 1, email: u.email, name: u.name, user_id: u.id, side: 'seller', company: plan.spec.name, title: u.role === 'viewer' ? 'Solutions Engineer' : u.isManager ? 'Sales Manager' : 'Account Executive' });
  };
  addUser(owner);
  for (const idx of o.attendeeIdx ?? []) addUser(plan.users[idx]!);
  const teammates = plan.users.filter((u) => u.teamKey === owner.teamKey && u.id !== owner.id);
  if (internal) for (const u of rng.sample(teammates, rng.int(1, 3))) addUser(u);
  else {
    for (const u of teammates) if (u.role === 'viewer' && rng.chance(0.3)) addUser(u);
    if (rng.chance(0.1)) {
      const manager = teammates.find((u) => u.isManager);
      if (manager) addUser(manager);
    }
    for (const c of rng.sample(account!.contacts, rng.int(1, Math.min(3, account!.contacts.length)))) {
      people.push({ org_id: plan.orgId, meeting_id: id, id: people.length + 1, email: c.email, name: c.name, user_id: null, side: 'buyer', company: account!.name, title: c.title });
    }
    if (rng.chance(0.05)) people.push({ org_id: plan.orgId, meeting_id: id, id: people.length + 1, email: null, name: 'Unknown caller', user_id: null, side: 'unknown', company: null, title: null });
  }

  const transcriptWanted = status === 'completed' && (o.recorded || ((internal ? rng.chance(0.5) : rng.chance(0.92)) && (ctx.recordShare >= 1 || rng.chance(ctx.recordShare))));
  const reason = status === 'scheduled' ? 'scheduled' : status === 'canceled' ? 'canceled' : transcriptWanted ? null : rng.pick(['not_recorded', 'consent_declined']);
  const values = {
    account: account?.name ?? plan.spec.name,
    product: PRODUCT,
    competitor: rng.pick(COMPETITORS),
    amount: `$${(deal?.amount ?? 50_000).toLocaleString('en-US')}`,
    seats: String(rng.int(4, 40) * 5),
    weeks: String(rng.int(1, 3)),
    quarter: rng.pick(['Q1', 'Q2', 'Q3', 'Q4']),
  };
  const speakers: Speaker[] = people.map((p) => ({ participantId: p.id, name: p.name, side: p.side }));
  const segments = transcriptWanted ? generateTranscript(rng, { type, durationMs: durationMin * MINUTE, speakers, values }) : [];
  const talk = new Map<number, number>();
  let chars = 0;
  for (const s of segments) {
    talk.set(s.participantId, (talk.get(s.participantId) ?? 0) + (s.endMs - s.startMs));
    chars += s.text.length;
    ctx.writer.add('transcript_segments', { org_id: plan.orgId, meeting_id: id, idx: s.idx, start_ms: s.startMs, end_ms: s.endMs, speaker: s.speaker, participant_id: s.participantId, text: s.text });
  }
  for (const p of people) ctx.writer.add('participants', { ...p, talk_time_ms: talk.get(p.id) ?? 0 });

  const buyerNames = people.filter((p) => p.side === 'buyer').map((p) => p.name);
  const title = o.title ?? (internal ? rng.pick(INTERNAL_TITLES) : `${rng.pick(CALL_TITLES[type as CallType])} — ${account!.name}`);
  const hasNotes = segments.length > 0;
  const buyerLines = segments.filter((s) => s.side === 'buyer').map((s) => s.text);
  const keyPoints = hasNotes ? [...new Set(rng.sample(buyerLines, 4))] : [];
  const nextSteps = hasNotes
    ? [
        { text: `Send the recap and mutual action plan to ${buyerNames[0] ?? 'the team'}`, owner: owner.name, due: isoDate(endAt + 2 * DAY) },
        { text: internal ? 'Update close dates in the CRM' : `Schedule the follow-up ${type === 'discovery' ? 'demo' : 'call'} with ${account!.name}`, owner: owner.name, due: isoDate(endAt + 7 * DAY) },
      ]
    : [];
  const summary = hasNotes
    ? internal
      ? `**${title}.** The team reviewed open deals and coaching points. ${keyPoints[0] ?? ''}`
      : `**${title}.** ${type[0]!.toUpperCase()}${type.slice(1)} call with ${buyerNames.join(', ') || 'the buyer'} of ${account!.name} about ${PRODUCT}. ${keyPoints.slice(0, 2).join(' ')} ${values.competitor} came up as the incumbent or alternative.`
    : null;
  ctx.writer.add('meetings', {
    org_id: plan.orgId,
    id,
    title,
    start_at: startAt,
    end_at: endAt,
    status,
    owner_id: owner.id,
    team_id: owner.teamKey ? (ctx.teamIdByKey.get(owner.teamKey) ?? null) : null,
    deal_id: deal?.id ?? null,
    account_id: account?.id ?? null,
    meeting_type: internal ? 'internal' : 'external',
    language: 'en',
    summary_md: summary,
    key_points: JSON.stringify(keyPoints),
    next_steps: JSON.stringify(nextSteps),
    has_transcript: segments.length > 0 ? 1 : 0,
    transcript_reason: reason,
    segment_count: segments.length,
    transcript_chars: chars,
    created_at: startAt,
  });

  if (status !== 'completed') return;
  if (deal && segments.length > 0) {
    const calls = ctx.dealCalls.get(deal.id) ?? [];
    calls.push({ meetingId: id, startAt, quotes: evidence(rng, segments, 'buyer') });
    if (calls.length > 5) calls.shift();
    ctx.dealCalls.set(deal.id, calls);
  }
  addAgentResults(ctx, { id, endAt, internal, owner, segments });
}

function addAgentResults(ctx: MeetingContext, m: { id: string; endAt: number; internal: boolean; owner: PlanUser; segments: Segment[] }): void {
  const { rng, plan } = ctx;
  const ownerTeamId = m.owner.teamKey ? ctx.teamIdByKey.get(m.owner.teamKey) : undefined;
  for (const agent of ctx.agents) {
    const applies =
      agent.key === 'scorecard' ? !m.internal : agent.key === 'next_steps' ? agent.teamId !== null && agent.teamId === ownerTeamId : agent.key === 'personal' ? agent.ownerId === m.owner.id : false;
    if (!applies) continue;
    const status = m.segments.length === 0 ? 'no_transcript' : rng.chance(0.01) ? 'error' : agent.key === 'personal' && rng.chance(0.2) ? 'not_run' : 'ok';
    const properties =
      status !== 'ok'
        ? []
        : agent.properties.map((prop) => {
            const score = prop.max_score === null ? null : rng.int(Math.ceil(prop.max_score * 0.3), prop.max_score);
            const text = SCORECARD_TEXT[prop.key] ? rng.pick(SCORECARD_TEXT[prop.key]!) : `${prop.title}: ${rng.pick(m.segments).text}`;
            return { key: prop.key, title: prop.title, result_md: text, score, max_score: prop.max_score, evidence: evidence(rng, m.segments, prop.key === 'listening' ? 'seller' : 'any') };
          });
    ctx.writer.add('agent_results', { org_id: plan.orgId, agent_id: agent.id, meeting_id: m.id, status, generated_at: m.endAt + 10 * MINUTE, properties: JSON.stringify(properties) });
  }
}
