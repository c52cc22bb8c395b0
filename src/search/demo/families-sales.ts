// Templated document families for selling: competitor battlecards, objection handling cards and
// buyer persona guides. Facts vary per instance so every card answers its own questions.
// The competitors are fictional on purpose: the demo makes no claims about real vendors.
import type { CoreDoc } from './core-docs.ts';

type Competitor = { name: string; kind: string; strength: string; weakness: string; price: string; landmine: string; proof: string };

export const COMPETITORS: Competitor[] = [
  { name: 'Callwise', kind: 'a call recording tool for small teams', strength: 'a low entry price and a fast self-serve setup', weakness: 'no deal boards, no forecasting and transcripts only in English', price: 'about $480 per seat per year, with paid add-ons for the CRM sync', landmine: 'Ask how they will coach reps who sell in French, German or Spanish', proof: 'Harbor Logistics replaced Callwise and cut ramp time by 5 weeks' },
  { name: 'Pipestream', kind: 'a sales engagement platform with a dialer', strength: 'email sequencing and the built-in dialer that SDR teams already know', weakness: 'conversation intelligence is a bolt-on with a 48-hour transcript delay', price: 'bundled; conversation intelligence adds about $400 per seat per year', landmine: 'Ask how long after a call the manager can review the transcript and the coaching score', proof: 'Summit Analytics kept Pipestream for sequences and chose us for coaching' },
  { name: 'Forecastly', kind: 'a revenue forecasting tool', strength: 'roll-up forecasting for finance and a strong CFO relationship', weakness: 'no call recording, so forecast signals come only from CRM fields', price: 'usually sold to finance at $1,400 per seat per year with a 100-seat minimum', landmine: 'Ask how the forecast knows what the buyer actually said on the last call', proof: 'Meridian Bank improved forecast accuracy to within 6 percent using call signals' },
  { name: 'Cadence One', kind: 'an all-in-one revenue suite', strength: 'one vendor for engagement, recording and forecasting, attractive to procurement', weakness: 'long implementations of four to six months and limited custom scorecards', price: 'suite pricing from $1,900 per seat per year on three-year terms', landmine: 'Ask for the implementation timeline in writing and a reference live in under 60 days', proof: 'Granite Manufacturing went live with us in 5 weeks after a stalled Cadence One rollout' },
  { name: 'Dealroom AI', kind: 'a new AI deal-assistant startup', strength: 'an impressive generative AI demo and aggressive discounting', weakness: 'no SOC 2 Type II report yet, no EU hosting and no SSO', price: 'often discounted below $500 per seat per year to win logos', landmine: 'Ask for their SOC 2 Type II report and their data residency options', proof: 'Lumen Health chose us after Dealroom AI failed the security review' },
];

export function battlecards(): CoreDoc[] {
  return COMPETITORS.map((c) => ({
    key: `battlecard-${c.name.toLowerCase().replace(/\s+/g, '-')}`,
    title: `Battlecard: {product} vs ${c.name}`,
    source: 'highspot',
    body: `## Overview
${c.name} is ${c.kind}. We meet ${c.name} most often in mid-market deals where the buyer is replacing spreadsheets or a first-generation tool.

## Where ${c.name} wins
${c.name} wins on ${c.strength}. Do not attack this directly; acknowledge it and move the conversation to outcomes.

## Where we win against ${c.name}
We win against ${c.name} because of ${c.weakness} on their side, while {product} covers recording, coaching scorecards, deal boards and forecasting in one workspace with transcripts in 30 languages.

## Landmines to set
${c.landmine}. Set this landmine in discovery, before the buyer sees the ${c.name} demo.

## Pricing comparison
${c.name} pricing: ${c.price}. Compare total cost over three years including add-ons and implementation, not the headline seat price.

## Proof points
${c.proof}. Share the case study from Highspot and offer a reference call once the deal is in the proposal stage.`,
  }));
}

type Objection = { key: string; title: string; says: string; means: string; respond: string; proof: string };

const OBJECTIONS: Objection[] = [
  { key: 'price-too-high', title: 'Your price is too high', says: '"Your price is too high" or "the other vendor is cheaper"', means: 'the buyer has not yet connected the price to a business outcome, or is anchoring for a discount', respond: 'Do not discount. Go back to the metrics: ask what a one-point increase in win rate is worth and compare it with the annual cost. Offer a smaller first phase instead of a lower price.', proof: 'the ROI calculator in Highspot, which shows payback in under six months for teams above 30 sellers' },
  { key: 'no-budget', title: 'We have no budget this year', says: '"There is no budget for this until next year"', means: 'the problem is not yet a priority, or the budget sits with someone else', respond: 'Ask whose budget covers sales productivity and whether money is being spent today on tools or contractors that this replaces. Offer to build the business case with the champion for the next budget cycle.', proof: 'the consolidation worksheet that lists the tools customers retired after buying' },
  { key: 'already-have-tool', title: 'We already have a call recording tool', says: '"We already record our calls"', means: 'recording exists but nobody uses the recordings to coach or to inspect deals', respond: 'Ask how many recordings a manager reviewed last week and how coaching is tracked. Show the coaching scorecards and deal boards, which most recording tools lack.', proof: 'usage data: customers who switched review four times more calls per manager' },
  { key: 'timing', title: 'Now is not a good time', says: '"Come back next quarter"', means: 'there is no compelling event, or the buyer is busy with a reorganization', respond: 'Ask what will be different next quarter, and tie the start date to an event such as the sales kickoff, new hires starting or the next planning cycle.', proof: 'the 30-day pilot offer, which needs two hours of the buyer\'s time' },
  { key: 'security-concerns', title: 'We are worried about recording and security', says: '"Our security team will never approve call recording"', means: 'the buyer expects a long security review or has had a bad experience', respond: 'Bring the security FAQ and the SOC 2 Type II report to the first conversation. Offer a call between their security lead and our security team, and explain the per-country consent announcements and retention controls.', proof: 'the trust center and the completed standard security questionnaires (SIG Lite and CAIQ)' },
  { key: 'it-involvement', title: 'We need IT to get involved', says: '"I need to check with IT first"', means: 'a hidden decision maker or an integration concern', respond: 'Welcome it. Ask who in IT and what they will look at, then invite them to a technical session with the solutions engineer covering SSO, the CRM integration and data flows.', proof: 'the integration architecture diagram and the SSO setup guide' },
  { key: 'reps-wont-adopt', title: 'Our reps will not use another tool', says: '"Reps hate new tools"', means: 'past rollouts failed because the tool added work for sellers', respond: 'Explain that {product} works in the background: it joins calls automatically, writes notes into the CRM and needs no data entry. Offer an adoption plan with weekly usage reports.', proof: 'median weekly active usage of 87 percent across customers after 90 days' },
  { key: 'build-in-house', title: 'We can build this ourselves', says: '"Our data team can build this in-house"', means: 'a technical buyer underestimates the maintenance cost', respond: 'Acknowledge their skill, then list what it takes: transcription in 30 languages, speaker identification, CRM sync, security certifications and ongoing model updates. Compare a year of two engineers with the subscription.', proof: 'the build-versus-buy worksheet' },
  { key: 'contract-length', title: 'We will not sign a multi-year contract', says: '"We only sign one-year contracts"', means: 'the buyer fears lock-in', respond: 'Offer a one-year term at list price, or a two-year term with a price cap, and explain the 6 and 12 percent multi-year savings. Never give the multi-year discount on a one-year term.', proof: 'the renewal price cap clause in the pricing guide' },
  { key: 'send-info', title: 'Just send me some information', says: '"Just send me something to read"', means: 'a polite brush-off, or genuine interest without time', respond: 'Agree, then ask one question to make the material relevant: what would you need to see to know whether this is worth a conversation? Book a 15-minute follow-up before you hang up.', proof: 'the two-page overview tailored to their industry' },
];

export function objectionCards(): CoreDoc[] {
  return OBJECTIONS.map((o) => ({
    key: `objection-${o.key}`,
    title: `Objection Handling: ${o.title}`,
    source: 'highspot',
    body: `## The objection
The buyer says ${o.says}. It comes up most often in the proposal and negotiation stages.

## What it usually means
It usually means ${o.means}. Ask a clarifying question before you answer.

## How to respond
${o.respond}

## Proof to share
Share ${o.proof}. Log the objection in the opportunity so the manager can coach it in the next 1:1.`,
  }));
}

type Persona = { key: string; title: string; cares: string; asks: string; position: string; avoid: string };

const PERSONAS: Persona[] = [
  { key: 'cfo', title: 'CFO', cares: 'forecast accuracy, payback period and consolidation of tools', asks: 'What is the payback period, and which tools can we retire?', position: 'Lead with forecast accuracy and the consolidation savings; bring the ROI model with their numbers.', avoid: 'feature tours and coaching details' },
  { key: 'cro', title: 'Chief Revenue Officer', cares: 'hitting the number, win rates and rep ramp time', asks: 'How quickly will new reps ramp, and will this improve our win rate this year?', position: 'Lead with ramp time and win rate case studies from similar companies, and show the deal boards used in the forecast call.', avoid: 'technical integration details' },
  { key: 'revops', title: 'Head of Revenue Operations', cares: 'clean CRM data, integration effort and reporting', asks: 'Which fields do you write into Salesforce, and how do we control them?', position: 'Show the field mapping, the automatic activity capture and the admin controls; offer a sandbox trial.', avoid: 'vague AI promises without showing the data flow' },
  { key: 'enablement', title: 'Director of Sales Enablement', cares: 'onboarding, coaching consistency and content usage', asks: 'Can we build our own scorecards and track coaching over time?', position: 'Show custom scorecards, coaching dashboards and the call library of best calls.', avoid: 'forecasting, which is not their concern' },
  { key: 'it-security', title: 'IT and Security Lead', cares: 'data protection, SSO, retention and vendor risk', asks: 'Where is the data hosted, and do you have a SOC 2 Type II report?', position: 'Send the security FAQ before the meeting and bring the security team; answer in writing.', avoid: 'downplaying recording consent requirements' },
  { key: 'frontline-manager', title: 'Frontline Sales Manager', cares: 'time to coach, deal inspection and rep performance', asks: 'How much time will this save me each week?', position: 'Show how a manager reviews a call in five minutes with the AI notes and scorecard, and how deal boards replace the pipeline spreadsheet.', avoid: 'executive ROI language' },
];

export function personaGuides(): CoreDoc[] {
  return PERSONAS.map((p) => ({
    key: `persona-${p.key}`,
    title: `Persona Guide: Selling to the ${p.title}`,
    source: 'google_drive',
    body: `## What the ${p.title} cares about
The ${p.title} cares about ${p.cares}.

## Questions the ${p.title} asks
A typical question: "${p.asks}" Prepare the answer before the meeting.

## How to position {product}
${p.position}

## What to avoid
Avoid ${p.avoid} with the ${p.title}; keep the meeting to 30 minutes and confirm the next step in writing.`,
  }));
}
