// Generated reports: weekly pipeline reports per team and for the organization, personal notes,
// and one long quarterly business review (larger than one page, so readers page through it).
import type { Rng } from './prng.ts';
import type { OrgPlan, PlanDeal } from './plan.ts';
import { isoDate } from './plan.ts';
import type { BatchWriter } from './writer.ts';

const DAY = 86_400_000;
type Section = { id: string; title: string; markdown: string };

const money = (plan: OrgPlan, n: number) => `${plan.spec.currency === 'EUR' ? '€' : '$'}${n.toLocaleString('en-US')}`;

function dealLine(plan: OrgPlan, d: PlanDeal): string {
  const owner = plan.users[d.ownerIdx]!.name;
  return `- **${d.name}** (${plan.accounts[d.accountIdx]!.domain}) — ${d.stage.replace('_', ' ')}, ${money(plan, d.amount)}, closes ${d.closeDate}, owner ${owner}`;
}

function weeklySections(rng: Rng, plan: OrgPlan, deals: PlanDeal[], weekEnd: string): Section[] {
  const open = deals.filter((d) => d.status === 'open');
  const pipeline = open.reduce((s, d) => s + d.amount, 0);
  const risky = rng.sample(open, Math.min(5, open.length));
  const moved = rng.sample(deals, Math.min(8, deals.length));
  return [
    { id: 'summary', title: 'Summary', markdown: `Week ending ${weekEnd}: ${open.length} open deals worth ${money(plan, pipeline)}. ${rng.int(2, 9)} deals advanced a stage and ${rng.int(0, 4)} slipped their close date. Forecast coverage is ${rng.int(18, 42) / 10}x the remaining quota.` },
    { id: 'pipeline-movement', title: 'Pipeline movement', markdown: moved.map((d) => dealLine(plan, d)).join('\n') || '_No movement this week._' },
    { id: 'deals-at-risk', title: 'Deals at risk', markdown: risky.map((d) => `${dealLine(plan, d)}\n  - Risk: ${rng.pick(['no economic buyer identified', 'champion went quiet', 'competitor in late stage', 'close date slipped twice', 'no next meeting booked'])}`).join('\n') || '_No deals at risk._' },
    { id: 'coaching', title: 'Coaching highlights', markdown: `- Discovery calls averaged ${rng.int(55, 75)}% seller talk time; aim for under 60%.\n- ${rng.int(60, 95)}% of calls ended with a dated next step.\n- Pricing objections were handled with the business case on ${rng.int(3, 9)} calls.` },
    { id: 'next-week', title: 'Next week', markdown: `Focus on ${risky[0]?.name ?? 'the commit deals'} and book economic-buyer meetings for every deal in negotiation.` },
  ];
}

function addReport(plan: OrgPlan, writer: BatchWriter, r: { id: string; title: string; type: 'weekly' | 'deal' | 'team' | 'custom'; start: string; end: string; generatedAt: number; agentId: string | null; teamId: string | null; ownerId: string | null; visibility: 'org' | 'team' | 'personal'; sections: Section[] }): void {
  writer.add('reports', {
    org_id: plan.orgId,
    id: r.id,
    title: r.title,
    type: r.type,
    period_start: r.start,
    period_end: r.end,
    generated_at: r.generatedAt,
    agent_id: r.agentId,
    team_id: r.teamId,
    owner_id: r.ownerId,
    visibility: r.visibility,
    section_count: r.sections.length,
    total_chars: r.sections.reduce((s, x) => s + x.title.length + x.markdown.length, 0),
  });
  r.sections.forEach((s, idx) => writer.add('report_sections', { org_id: plan.orgId, report_id: r.id, idx, section_id: s.id, title: s.title, markdown: s.markdown }));
}

export function addReports(rng: Rng, plan: OrgPlan, writer: BatchWriter, anchor: number, weeklyAgentId: string | null, weeks: number): void {
  const admin = plan.users.find((u) => u.role === 'admin')!;
  // Weeks end on the Sunday before the anchor.
  const lastSunday = Math.floor(anchor / DAY) * DAY - (new Date(anchor).getUTCDay() || 7) * DAY;
  for (let w = 0; w < weeks; w++) {
    const end = lastSunday - w * 7 * DAY;
    const start = end - 6 * DAY;
    const generatedAt = end + DAY + 6 * 3_600_000;
    addReport(plan, writer, { id: rng.id('rpt', generatedAt), title: `${plan.spec.name} weekly pipeline — week ending ${isoDate(end)}`, type: 'weekly', start: isoDate(start), end: isoDate(end), generatedAt, agentId: weeklyAgentId, teamId: null, ownerId: admin.id, visibility: 'org', sections: weeklySections(rng, plan, plan.deals, isoDate(end)) });
    for (const team of plan.teams) {
      const members = new Set(plan.users.map((u, i) => [u, i] as const).filter(([u]) => u.teamKey === team.key).map(([, i]) => i));
      const manager = plan.users.find((u) => u.teamKey === team.key && u.isManager) ?? admin;
      const deals = plan.deals.filter((d) => members.has(d.ownerIdx));
      addReport(plan, writer, { id: rng.id('rpt', generatedAt), title: `${team.name} weekly report — week ending ${isoDate(end)}`, type: 'weekly', start: isoDate(start), end: isoDate(end), generatedAt, agentId: weeklyAgentId, teamId: team.id, ownerId: manager.id, visibility: 'team', sections: weeklySections(rng, plan, deals, isoDate(end)) });
    }
  }
  // Personal notes: one of the fixed member's, and one of a teammate's (private to its owner).
  const members = plan.users.map((u, i) => [u, i] as const).filter(([u]) => u.role === 'member');
  for (const [user, idx] of members.slice(0, 2)) {
    const deals = plan.deals.filter((d) => d.ownerIdx === idx);
    addReport(plan, writer, {
      id: rng.id('rpt', lastSunday),
      title: `Private deal notes — ${user.name}`,
      type: 'deal',
      start: isoDate(lastSunday - 30 * DAY),
      end: isoDate(lastSunday),
      generatedAt: lastSunday + DAY,
      agentId: null,
      teamId: user.teamKey ? (plan.teams.find((t) => t.key === user.teamKey)?.id ?? null) : null,
      ownerId: user.id,
      visibility: 'personal',
      sections: [
        { id: 'my-deals', title: 'My deals', markdown: deals.map((d) => dealLine(plan, d)).join('\n') || '_No deals._' },
        { id: 'notes', title: 'Notes to self', markdown: 'Push for the economic buyer meeting before the pricing call. Do not discount before the business case is reviewed.' },
      ],
    });
  }
  // A quarterly business review longer than one page of read_report.
  const qbrSections: Section[] = [];
  for (const team of plan.teams) {
    const members = new Set(plan.users.map((u, i) => [u, i] as const).filter(([u]) => u.teamKey === team.key).map(([, i]) => i));
    const deals = plan.deals.filter((d) => members.has(d.ownerIdx));
    qbrSections.push({ id: `${team.key}-pipeline`, title: `${team.name}: pipeline`, markdown: deals.map((d) => dealLine(plan, d)).join('\n') || '_No deals._' });
    qbrSections.push({ id: `${team.key}-wins`, title: `${team.name}: wins and losses`, markdown: deals.filter((d) => d.status !== 'open').map((d) => `${dealLine(plan, d)} — ${d.status}`).join('\n') || '_None._' });
  }
  qbrSections.unshift({ id: 'executive-summary', title: 'Executive summary', markdown: `The quarter closed with ${plan.deals.filter((d) => d.status === 'won').length} won deals. Win rate, ramp time and forecast accuracy are reviewed per team below.` });
  addReport(plan, writer, { id: rng.id('rpt', lastSunday), title: `${plan.spec.name} quarterly business review`, type: 'custom', start: isoDate(lastSunday - 90 * DAY), end: isoDate(lastSunday), generatedAt: lastSunday + 2 * DAY, agentId: weeklyAgentId, teamId: null, ownerId: admin.id, visibility: 'org', sections: qbrSections });
}
