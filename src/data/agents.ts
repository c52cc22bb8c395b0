// The demo agents (templates) and the scoring texts their results are built from.
export type AgentProperty = { key: string; title: string; max_score: number | null };

export type AgentSpec = {
  key: 'meddpicc' | 'bant' | 'scorecard' | 'next_steps' | 'weekly' | 'personal';
  name: string;
  category: 'qualification' | 'coaching' | 'extraction' | 'summary' | 'dispatch';
  type: 'extraction' | 'scoring' | 'hybrid' | 'dispatch';
  methodology: string | null;
  scope: 'meeting' | 'deal';
  visibility: 'org' | 'team' | 'personal';
  /** Team key for team visibility; owner is the team's first member for personal ones. */
  teamKey: string | null;
  ownerLocal: string | null;
  primary: boolean;
  description: string;
  properties: AgentProperty[];
};

const p = (key: string, title: string, max_score: number | null = 10): AgentProperty => ({ key, title, max_score });

export const AGENTS: AgentSpec[] = [
  {
    key: 'meddpicc',
    name: 'MEDDPICC Qualification',
    category: 'qualification',
    type: 'hybrid',
    methodology: 'MEDDPICC',
    scope: 'deal',
    visibility: 'org',
    teamKey: null,
    ownerLocal: null,
    primary: true,
    description: 'Scores each deal on the eight MEDDPICC dimensions from every recorded call on it.',
    properties: [
      p('metrics', 'Metrics'), p('economic_buyer', 'Economic buyer'), p('decision_criteria', 'Decision criteria'), p('decision_process', 'Decision process'),
      p('paper_process', 'Paper process'), p('identify_pain', 'Identify pain'), p('champion', 'Champion'), p('competition', 'Competition'),
    ],
  },
  {
    key: 'bant',
    name: 'BANT Qualification',
    category: 'qualification',
    type: 'scoring',
    methodology: 'BANT',
    scope: 'deal',
    visibility: 'org',
    teamKey: null,
    ownerLocal: null,
    primary: false,
    description: 'Budget, authority, need and timeline for each deal, scored from its calls.',
    properties: [p('budget', 'Budget'), p('authority', 'Authority'), p('need', 'Need'), p('timeline', 'Timeline')],
  },
  {
    key: 'scorecard',
    name: 'Call Scorecard',
    category: 'coaching',
    type: 'scoring',
    methodology: null,
    scope: 'meeting',
    visibility: 'org',
    teamKey: null,
    ownerLocal: null,
    primary: false,
    description: 'Coaching scorecard for each external call: opening, discovery, listening, objections, next steps.',
    properties: [
      p('opening', 'Opening and agenda', 5), p('discovery', 'Discovery questions', 5), p('listening', 'Talk-to-listen ratio', 5),
      p('objections', 'Objection handling', 5), p('next_steps', 'Clear next steps', 5),
    ],
  },
  {
    key: 'next_steps',
    name: 'Next Steps Extractor',
    category: 'extraction',
    type: 'extraction',
    methodology: null,
    scope: 'meeting',
    visibility: 'team',
    teamKey: 'ee',
    ownerLocal: null,
    primary: false,
    description: 'Extracts commitments, risks and competitor mentions from each call of the team.',
    properties: [p('commitments', 'Commitments', null), p('risks', 'Risks', null), p('competitors', 'Competitor mentions', null)],
  },
  {
    key: 'weekly',
    name: 'Weekly Pipeline Report',
    category: 'summary',
    type: 'extraction',
    methodology: null,
    scope: 'deal',
    visibility: 'org',
    teamKey: null,
    ownerLocal: null,
    primary: false,
    description: 'Writes the weekly pipeline report for each team and for the organization.',
    properties: [p('summary', 'Summary', null), p('movement', 'Pipeline movement', null), p('risks', 'Deals at risk', null)],
  },
  {
    key: 'personal',
    name: 'My Discovery Checklist',
    category: 'coaching',
    type: 'scoring',
    methodology: 'SPICED',
    scope: 'meeting',
    visibility: 'personal',
    teamKey: null,
    ownerLocal: 'mia.member',
    primary: false,
    description: 'A personal SPICED checklist for discovery calls.',
    properties: [p('situation', 'Situation', 5), p('pain', 'Pain', 5), p('impact', 'Impact', 5), p('critical_event', 'Critical event', 5), p('decision', 'Decision', 5)],
  },
];

export const DIMENSION_TEXT: Record<string, { strong: string; partial: string; missing: string; gap: string }> = {
  metrics: { strong: 'The buyer quantified the impact: win rate and ramp time targets are explicit.', partial: 'Some numbers were mentioned, but no agreed success metric.', missing: 'No measurable outcome discussed yet.', gap: 'Agree on one success metric with a baseline and a target.' },
  economic_buyer: { strong: 'The CFO is identified and has joined a call.', partial: 'The economic buyer is named but has not been met.', missing: 'Nobody with budget authority has been identified.', gap: 'Get a meeting with the person who signs.' },
  decision_criteria: { strong: 'Security review and CRM integration are the stated criteria, both addressed.', partial: 'Criteria are known but not ranked.', missing: 'Evaluation criteria are unknown.', gap: 'Ask what would make them choose one vendor over another.' },
  decision_process: { strong: 'Steps from security to procurement to signature are mapped with dates.', partial: 'The process is known in outline, without dates.', missing: 'How the decision gets made is unknown.', gap: 'Map each approval step and who owns it.' },
  paper_process: { strong: 'Legal and procurement steps are known and under way.', partial: 'Legal review is expected but not scheduled.', missing: 'No visibility into contracting.', gap: 'Ask for the procurement checklist and legal contacts.' },
  identify_pain: { strong: 'Pain is explicit: forecast misses and slow ramp, with cost attached.', partial: 'Pain is described but not quantified.', missing: 'No clear pain established.', gap: 'Ask what the problem costs them per quarter.' },
  champion: { strong: 'The head of revenue operations sells internally for us.', partial: 'A supporter exists but has not acted for us.', missing: 'No champion identified.', gap: 'Test the supporter: ask them to set up the next meeting.' },
  competition: { strong: 'The competitor is known and our differentiation is acknowledged.', partial: 'A competitor is in play; differentiation not yet landed.', missing: 'Unknown whether others are being evaluated.', gap: 'Ask who else they are talking to and why.' },
  budget: { strong: 'Budget is approved for this fiscal year.', partial: 'Partial budget from the enablement line.', missing: 'No budget discussed.', gap: 'Confirm the budget line and amount.' },
  authority: { strong: 'The signer is known and engaged.', partial: 'The signer is known but not engaged.', missing: 'Authority unknown.', gap: 'Identify who signs and get them on a call.' },
  need: { strong: 'A clear need tied to the quarterly number.', partial: 'A general interest without urgency.', missing: 'Need not established.', gap: 'Tie the need to a business outcome.' },
  timeline: { strong: 'Decision date agreed, tied to the fiscal year end.', partial: 'A rough quarter is mentioned.', missing: 'No timeline.', gap: 'Ask for the date they need this live and why.' },
};

export const SCORECARD_TEXT: Record<string, string[]> = {
  opening: ['Set a clear agenda and confirmed the time available.', 'Opened without an agenda; the buyer steered the call.', 'Good rapport, agenda confirmed with all attendees.'],
  discovery: ['Asked open questions about process, pain and impact.', 'Discovery stayed on the surface; few follow-up questions.', 'Strong quantification of the pain with the buyer.'],
  listening: ['The seller talked for about half of the call: balanced.', 'The seller dominated the conversation; let the buyer talk more.', 'Good listening, with summaries of what the buyer said.'],
  objections: ['Handled the pricing objection with the business case.', 'Skipped past the competitor concern without addressing it.', 'Acknowledged the concern and offered a reference customer.'],
  next_steps: ['Agreed on a dated next step with an owner on each side.', 'Ended without a concrete next step.', 'Booked the follow-up on the call.'],
};
