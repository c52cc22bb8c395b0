// Templated document families about the market and the product: industry playbooks, feature
// one-pagers, release notes, win/loss reviews, customer case studies and team documents.
import type { CoreDoc } from './core-docs.ts';

type Industry = { name: string; pains: string; compliance: string; buyers: string; question: string; reference: string };

const INDUSTRIES: Industry[] = [
  { name: 'Financial Services', pains: 'long sales cycles, strict call-recording rules and advisors who resist new tools', compliance: 'FINRA and MiFID II record-keeping rules require retention of recorded calls for five to seven years, so set a custom retention period', buyers: 'the head of wealth sales and the chief compliance officer', question: 'How do you supervise advisor conversations today?', reference: 'Meridian Bank' },
  { name: 'Healthcare', pains: 'selling into hospital committees and long procurement cycles', compliance: 'we do not sign BAAs, so position the product for sales conversations without patient data', buyers: 'the VP of Sales at the medical device or health tech vendor', question: 'How many stakeholders sit on a typical value analysis committee?', reference: 'Lumen Health' },
  { name: 'Manufacturing', pains: 'distributor channels, complex quotes and a sales force that works from the road', compliance: 'few regulatory constraints; focus on the CRM and ERP integration', buyers: 'the VP of Sales and the head of channel sales', question: 'How do you see what your distributors promise to customers?', reference: 'Granite Manufacturing' },
  { name: 'Software and SaaS', pains: 'fast hiring, rep ramp time and forecast misses', compliance: 'standard SOC 2 review; SaaS buyers expect SSO and SCIM', buyers: 'the CRO and the head of revenue operations', question: 'How long does it take a new account executive to close their first deal?', reference: 'Summit Analytics' },
  { name: 'Logistics', pains: 'high-volume transactional selling and account managers covering hundreds of accounts', compliance: 'usually light; check data residency for European carriers', buyers: 'the commercial director', question: 'How do you know which accounts are at risk of moving volume to a competitor?', reference: 'Harbor Logistics' },
  { name: 'Telecom', pains: 'large inside-sales teams, churn and script compliance', compliance: 'consent announcements per country and call-recording opt-outs', buyers: 'the head of B2B sales and the contact-center director', question: 'How do you check that reps follow the offer script?', reference: 'Tidal Telecom' },
  { name: 'Public Sector', pains: 'formal tenders, long evaluation cycles and strict data rules', compliance: 'data must stay in-region; use EU hosting for European agencies and expect a formal security assessment', buyers: 'the procurement office and the CIO', question: 'Which framework agreements can you buy through?', reference: 'Cobalt Systems' },
  { name: 'Education', pains: 'seasonal enrollment cycles and small budgets', compliance: 'student data must never be recorded; limit recording to admissions and partnership calls', buyers: 'the director of admissions and the CFO', question: 'When does your enrollment season start and end?', reference: 'Evergreen Education' },
];

export function industryPlaybooks(): CoreDoc[] {
  return INDUSTRIES.map((i) => ({
    key: `industry-${i.name.toLowerCase().replace(/\W+/g, '-')}`,
    title: `Industry Playbook: ${i.name}`,
    source: 'google_drive',
    body: `## Common pains in ${i.name}
Sales teams in ${i.name} struggle with ${i.pains}.

## Who buys in ${i.name}
The buyers are usually ${i.buyers}.

## Discovery questions for ${i.name}
Open with: "${i.question}" Then quantify the cost of the pain in their own numbers.

## Compliance notes for ${i.name}
${i.compliance}.

## Reference customers in ${i.name}
Use ${i.reference} as the reference customer; the case study is in Highspot and a reference call can be requested through customer marketing.`,
  }));
}

type Feature = { name: string; does: string; plan: string; users: string; limit: string };

const FEATURES: Feature[] = [
  { name: 'Call Recording and Transcripts', does: 'joins Zoom, Microsoft Teams and Google Meet calls, records them and produces transcripts in 30 languages with speaker labels', plan: 'all plans', users: 'every seller and manager', limit: 'phone calls need the dialer integration; calls longer than four hours are split' },
  { name: 'AI Meeting Notes', does: 'writes a summary, key points and next steps after every call and can push them to the CRM', plan: 'all plans', users: 'sellers who want to skip note-taking', limit: 'notes are generated within five minutes of the call end' },
  { name: 'Coaching Scorecards', does: 'scores calls against a custom rubric such as discovery quality or MEDDPICC coverage', plan: 'Growth and Enterprise', users: 'managers and enablement', limit: 'up to 20 custom scorecards per workspace' },
  { name: 'Deal Boards', does: 'shows every open deal with its last and next meeting, risks and qualification score', plan: 'Growth and Enterprise', users: 'managers running pipeline reviews', limit: 'deal boards need the Salesforce or HubSpot integration' },
  { name: 'Forecasting', does: 'rolls up commit and best case by team and flags deals whose calls contradict the forecast category', plan: 'Enterprise', users: 'CROs, managers and finance', limit: 'forecast history is kept for eight quarters' },
  { name: 'Custom AI Agents', does: 'runs custom extraction and scoring agents over calls or deals, for example competitor mentions or next steps', plan: 'Enterprise', users: 'revenue operations', limit: 'agents run on completed calls only, never on live calls' },
  { name: 'CRM Integration', does: 'syncs meetings, notes and qualification fields two-way with Salesforce and HubSpot', plan: 'Growth and Enterprise', users: 'revenue operations', limit: 'Microsoft Dynamics is supported read-only' },
  { name: 'MCP Server for AI Assistants', does: 'lets AI assistants such as Claude read meetings, transcripts, deals and documents through the Model Context Protocol, with the user\'s own permissions', plan: 'Enterprise', users: 'sellers and managers who work with AI assistants', limit: 'read-only; nothing can be changed through it' },
];

export function featureOnePagers(): CoreDoc[] {
  return FEATURES.map((f) => ({
    key: `feature-${f.name.toLowerCase().replace(/\W+/g, '-')}`,
    title: `Product One-Pager: ${f.name}`,
    source: 'highspot',
    body: `## What ${f.name} does
${f.name} ${f.does}.

## Who uses ${f.name}
It is used by ${f.users}.

## Plan availability
${f.name} is included in ${f.plan}.

## Limits and requirements
${f.limit[0]?.toUpperCase()}${f.limit.slice(1)}.`,
  }));
}

const RELEASES = [
  ['Q1 2025', 'Spanish and Portuguese transcripts', 'faster transcript search', 'the legacy Chrome extension'],
  ['Q2 2025', 'coaching scorecards with custom rubrics', 'AI notes in the CRM timeline', 'the old scorecard editor'],
  ['Q3 2025', 'deal boards with qualification scores', 'HubSpot two-way sync', 'CSV-only exports'],
  ['Q4 2025', 'forecast categories with call signals', 'EU hosting in Frankfurt', 'API version 1'],
  ['Q1 2026', 'custom AI agents for extraction and scoring', 'SCIM provisioning for Entra ID', 'manual seat assignment'],
  ['Q2 2026', 'the MCP server for AI assistants', 'participant-only access to meeting details', 'basic authentication for the API'],
  ['Q3 2026', 'Japanese and Korean transcripts', 'qualification history per deal', 'the weekly email digest v1'],
  ['Q4 2026', 'report sections with table of contents', 'faster document search', 'legacy webhook format'],
] as const;

export function releaseNotes(): CoreDoc[] {
  return RELEASES.map(([quarter, feature, improvement, removed]) => ({
    key: `release-${quarter.toLowerCase().replace(/\s+/g, '-')}`,
    title: `Release Notes ${quarter}`,
    source: 'upload',
    body: `## New in ${quarter}
The main release of ${quarter} is ${feature}. Customers on eligible plans get it automatically.

## Improvements in ${quarter}
This quarter also brings ${improvement}.

## Deprecations in ${quarter}
We retired ${removed}. Customers were notified 90 days in advance.`,
  }));
}

export function winLossReviews(): CoreDoc[] {
  const rows = [
    ['Q3 2025', 41, 'paper process delays at the end of the quarter', 'Cadence One'],
    ['Q4 2025', 44, 'no access to the economic buyer', 'Forecastly'],
    ['Q1 2026', 39, 'price competition from Dealroom AI', 'Dealroom AI'],
    ['Q2 2026', 47, 'single-threaded deals where the champion left', 'Pipestream'],
  ] as const;
  return rows.map(([quarter, rate, reason, rival]) => ({
    key: `win-loss-${quarter.toLowerCase().replace(/\s+/g, '-')}`,
    title: `Win/Loss Review ${quarter}`,
    source: 'onedrive',
    body: `## Results for ${quarter}
The win rate in ${quarter} was ${rate} percent on qualified opportunities.

## Top loss reason in ${quarter}
The most common loss reason was ${reason}. Action: qualify this earlier in MEDDPICC and review it in deal strategy sessions.

## Competitor trends in ${quarter}
${rival} appeared in more deals than in the previous quarter; use the ${rival} battlecard.`,
  }));
}

export function regionalPlaybooks(): CoreDoc[] {
  const regions = [
    ['North America', 'USD', 'US hosting by default; state call-recording consent laws require an announcement', 'the fiscal year ends in January for many SaaS buyers'],
    ['EMEA', 'EUR and GBP', 'offer EU hosting in Frankfurt and a DPA with standard contractual clauses from the first call', 'works councils in Germany and France must often approve recording; start early'],
    ['APAC', 'USD, AUD and JPY', 'Japanese transcripts are available; Australian buyers often ask about local hosting, which we do not offer', 'fiscal years in Japan and Australia often end in March and June'],
  ] as const;
  return regions.map(([region, currency, data, calendar]) => ({
    key: `region-${region.toLowerCase().replace(/\W+/g, '-')}`,
    title: `Regional Playbook: ${region}`,
    source: 'google_drive',
    body: `## Currencies and quoting in ${region}
Quotes in ${region} are issued in ${currency}.

## Data and privacy in ${region}
In ${region}: ${data}.

## Buying calendar in ${region}
In ${region}, ${calendar}.`,
  }));
}
