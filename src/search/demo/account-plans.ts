// Long documents for benchmark-sized corpora: an account plan per customer with twenty sections of
// ~400 words (about 20 passages each), written from sentence templates with varied names, numbers
// and competitors, deterministically from the index (the same i always gives the same text).
import { createHash } from 'node:crypto';
import type { CoreDoc } from './core-docs.ts';
import { caseStudy } from './case-studies.ts';

const PEOPLE = ['Dana Reyes', 'Leo Chen', 'Priya Patel', 'Marcus Okafor', 'Sofia Lindqvist', 'Ethan Moreau', 'Hannah Novak', 'Omar Haddad', 'Grace Kowalski', 'Lucas Tanaka', 'Aisha Murphy', 'Noah Schmidt', 'Chloe Silva', 'Mateo Ibrahim', 'Yuki Andersen', 'Elena Rossi'];
const ROLES = ['VP of Sales', 'CFO', 'Head of Revenue Operations', 'IT Director', 'Procurement Manager', 'Director of Sales Enablement', 'CRO', 'Security Lead'];
const RIVALS = ['Callwise', 'Pipestream', 'Forecastly', 'Cadence One', 'Dealroom AI', 'an in-house build', 'spreadsheets'];
const MODULES = ['coaching scorecards', 'deal boards', 'forecasting', 'AI meeting notes', 'custom AI agents', 'the Salesforce integration', 'the HubSpot integration', 'call recording'];
// Each section draws mostly from its own topic's sentences, so a word like "indemnity" or
// "reorganization" sits in a few sections rather than in every passage (word frequencies closer to
// those of a real document collection).
const TOPICS: Record<string, string[]> = {
  Discovery: [
    'In discovery, {person} explained that managers coach from gut feeling because nobody listens to recorded calls.',
    'The team sells through {n} account executives and {n} SDRs, and ramp time is about {y} months.',
    'Pain in their words: "we only find out a deal is dead when it slips out of the quarter".',
    'They estimate that a top performer leaving costs about ${k}k in lost pipeline.',
  ],
  'Stakeholder map': [
    'The stakeholder map lists {n} people; {person} ({role}) signs, and the enablement lead influences the choice.',
    '{person} is neutral and needs to hear from a reference customer in the same industry.',
    'The board sponsor wants a single revenue platform and asked for a consolidation estimate.',
  ],
  'Pricing discussion': [
    'On pricing, the buyer compared our per-seat price with {rival} and asked what is included in the Growth plan.',
    'We walked through the price-per-seat breakdown, the implementation package and the multi-year option.',
    'The pricing objection was handled with the ROI model: payback in {y} months at {n} seats.',
    'They asked for a {pct} percent discount; we traded it for a three-year term and a case study.',
  ],
  'Security review': [
    'The security review covered SSO with Okta, SCIM provisioning and the retention settings.',
    'Their CISO requested the SOC 2 Type II report under NDA and the latest penetration test letter.',
    'The vendor risk questionnaire had {n} questions about encryption, subprocessors and incident response.',
  ],
  'Legal review': [
    'Legal sent redlines on indemnity, the liability cap and governing law.',
    'We accepted mutual confidentiality and a {pct} percent cap on renewal increases.',
    'Their counsel asked for source code escrow, which we declined per the contracting playbook.',
  ],
  Procurement: [
    'Procurement requires a supplier onboarding form, a W-9 and bank details before the purchase order.',
    'The purchasing committee meets on {day} {month} and needs the final quote a week before.',
    'Procurement pushed for net 60 payment terms; the deal desk approved net 45.',
  ],
  'Pilot results': [
    'During the pilot, managers reviewed {n} calls and used {module} in every weekly one-to-one.',
    'Pilot users rated the AI notes {y} out of 10 and asked for Spanish transcripts.',
    'The pilot showed talk ratio falling from {pct} to {pct} percent for the newest reps.',
  ],
  'Executive briefing': [
    'At the executive briefing, the {role} asked how forecasting would change the Monday call.',
    'We presented three customer stories and the roadmap for custom AI agents.',
    'The executive sponsor committed to a decision by the end of {month}.',
  ],
  'Competitive situation': [
    'The competitive situation: {rival} is the incumbent, and the buyer likes its low entry price.',
    'We set the landmine about transcript languages before the {rival} demo.',
    'Win rate against {rival} in their region is about {pct} percent.',
  ],
  'Mutual action plan': [
    'The mutual action plan has {n} steps, from the technical validation to the kickoff on {day} {month}.',
    'Each step in the plan has an owner on the buyer side; {person} owns the security review.',
  ],
  'Rollout plan': [
    'The rollout starts with {n} users in the first wave and the rest of the team {y} weeks later.',
    'Admins will configure recording consent announcements per country before go-live.',
  ],
  'Renewal outlook': [
    'The renewal is due in {month}; weekly active usage is {pct} percent of seats.',
    'Renewal risk is low as long as the champion stays and the CRM sync keeps working.',
  ],
  'Expansion opportunities': [
    'Expansion potential: another {n} seats in customer success once the sales rollout is complete.',
    'Finance asked about forecasting, which would move them to the Enterprise plan.',
  ],
  Risks: [
    'Risk: the champion {person} may move to another role after the reorganization in {month}.',
    'Risk: a budget freeze could delay the signature into the next fiscal year.',
    'Risk: IT has not yet approved the calendar integration.',
  ],
  'Next steps': [
    'Next step: a technical session on {module} with the solutions engineer on {day} {month}.',
    'Next step: send the revised order form and schedule the signature call.',
  ],
  'Success metrics': [
    'Success metrics: ramp time down by {pct} percent, forecast accuracy within {pct} percent, and {n} coached calls a month.',
    'The scorecard baseline will be measured in the first 30 days after go-live.',
  ],
  'Integration requirements': [
    'Integration requirements: two-way sync with Salesforce, activity capture and the Zoom and Teams connectors.',
    'They need custom field mapping for {n} opportunity fields and a sandbox for testing.',
  ],
  'Training plan': [
    'Training plan: a 60-minute admin session, manager office hours and a certification path for reps.',
    'Enablement will build a call library of the {n} best discovery calls.',
  ],
  'Champion notes': [
    'Champion notes: {person} has arranged the meeting with the economic buyer and shares internal feedback weekly.',
    '{person} tested our claims with a peer at another customer before backing us.',
  ],
  Budget: [
    'The budget of ${k}k sits with the {role} and needs approval from finance above ${k}k.',
    'Budget for next year is set in {month}; this purchase comes from the enablement line.',
  ],
};
const GENERAL = [
  '{person}, the {role}, asked how {module} would work for a team of {n} sellers.',
  'Our champion {person} presented the business case to the leadership team on {day} {month}.',
  'The {role} wants a monthly report on the adoption of {module}.',
  'Follow-up email sent on {day} {month} with the recording and a summary.',
];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

class Draw {
  #bytes: Buffer;
  #i = 0;
  constructor(seed: string) {
    this.#bytes = createHash('sha512').update(seed).digest();
  }
  next(n: number): number {
    if (this.#i + 2 > this.#bytes.length) {
      this.#bytes = createHash('sha512').update(this.#bytes).digest();
      this.#i = 0;
    }
    const v = this.#bytes.readUInt16LE(this.#i);
    this.#i += 2;
    return v % n;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.next(items.length)] as T;
  }
}

/** The i-th account plan (i ≥ 0), about 8,000 words in 20 sections. */
export function accountPlan(i: number): CoreDoc {
  const customer = caseStudy(i).title.replace(/^Case Study: /, '');
  const draw = new Draw(`account-plan:${i}`);
  const slot: Record<string, () => string> = {
    person: () => draw.pick(PEOPLE),
    role: () => draw.pick(ROLES),
    rival: () => draw.pick(RIVALS),
    module: () => draw.pick(MODULES),
    n: () => String(5 + draw.next(400)),
    k: () => String(20 + draw.next(480)),
    pct: () => String(3 + draw.next(30)),
    y: () => String(2 + draw.next(7)),
    day: () => String(1 + draw.next(28)),
    month: () => draw.pick(MONTHS),
    quarter: () => `Q${1 + draw.next(4)}`,
  };
  const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => slot[name]?.() ?? name);
  const sections = Object.entries(TOPICS).map(([topic, own]) => {
    const sentences: string[] = [`${topic} for ${customer}.`];
    let words = 0;
    while (words < 400) {
      const s = fill(draw.next(5) === 0 ? draw.pick(GENERAL) : draw.pick(own));
      sentences.push(s);
      words += s.length / 6; // ~6 characters per word with its space
    }
    return `## ${topic}\n\n${sentences.join(' ')}`;
  });
  return {
    key: `account-plan-${i}`,
    title: `Account Plan: ${customer}`,
    source: i % 2 === 0 ? 'google_drive' : 'onedrive',
    body: sections.join('\n\n'),
  };
}
