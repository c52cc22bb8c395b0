// Conversation lines for generated transcripts, by call phase and side. Placeholders in braces
// are filled per meeting ({account}, {product}, {competitor}, {amount}, {seats}, {weeks}, {quarter}).
import type { CallType } from './vocabulary.ts';

export type Phase = { name: string; seller: readonly string[]; buyer: readonly string[] };

const opening: Phase = {
  name: 'opening',
  seller: [
    'Thanks for making the time today, I know the end of the quarter is busy for everyone at {account}.',
    'Before we dive in, could we do quick introductions so I know who is joining from your side?',
    'I have us down for the full slot, does that still work for everyone?',
    'My goal for today is to understand where you are and see whether {product} is even a fit.',
    'I sent a short agenda yesterday; happy to adjust it if something more pressing came up.',
  ],
  buyer: [
    'Sure, happy to. I lead the team that owns the sales process here at {account}.',
    'Thanks for having us. I mostly want to see how this would fit our current stack.',
    'We have a hard stop at the top of the hour, so let us keep it tight.',
    'I pulled in a colleague from operations because they will own the rollout.',
    'The agenda looks fine, we can go with that.',
  ],
};

const closing: Phase = {
  name: 'next steps',
  seller: [
    'So as next steps I will send a recap today and a mutual action plan by Friday.',
    'Could we get thirty minutes with your CFO in the next {weeks} weeks to walk through the business case?',
    'I will loop in our solutions engineer for the security questionnaire.',
    'Let us pencil in the follow-up now so we keep the momentum going.',
    'I will share the customer reference from a team of similar size in your industry.',
  ],
  buyer: [
    'That works. Send over the recap and I will forward it to the rest of the group.',
    'Let me check calendars on our side and come back to you with two options.',
    'We will need the security documents before legal will even look at it.',
    'Realistically the decision is made in {quarter}, so the timing lines up.',
    'Thanks, this was useful. Talk next week.',
  ],
};

const phases: Record<CallType, Phase[]> = {
  discovery: [
    {
      name: 'current process',
      seller: [
        'Walk me through how your reps prepare for a customer call today.',
        'How do managers currently find out what happened on a call they did not attend?',
        'What tools are in the stack today for call recording and forecasting?',
        'How many reps are on the team, and how is that split between new business and renewals?',
        'When a deal slips, how do you usually find out, and how late is that?',
      ],
      buyer: [
        'Honestly it is mostly notes in the CRM, and they are inconsistent from rep to rep.',
        'Managers listen to maybe one call a week per rep, there is just no time for more.',
        'We have about {seats} sellers, roughly two thirds on new business.',
        'We use {competitor} for recording today but nobody really looks at the recordings.',
        'We find out at the forecast call, which is usually too late to do anything about it.',
      ],
    },
    {
      name: 'pain and metrics',
      seller: [
        'What does that cost you? Do you have a sense of the win rate impact?',
        'If you could fix one thing in the next two quarters, what would it be?',
        'How do you measure ramp time for new hires today?',
        'Who else feels this pain besides the sales leadership team?',
      ],
      buyer: [
        'Our win rate dropped from about twenty eight to twenty two percent this year.',
        'Ramp time for new reps is close to seven months and the board wants it under five.',
        'Forecast accuracy is the big one. We missed the number by eleven percent last quarter.',
        'Enablement feels it too, they build training without knowing what actually happens on calls.',
        'The cost is real, we estimate a few million in pipeline that slipped for avoidable reasons.',
      ],
    },
    {
      name: 'decision process',
      seller: [
        'How would a decision like this get made at {account}? Who signs off?',
        'Is there budget set aside for this, or would it need a new line item?',
        'What would the evaluation look like, and which criteria matter most?',
        'Are you looking at other options in parallel?',
      ],
      buyer: [
        'The CRO owns the budget, but anything over {amount} goes to the CFO as well.',
        'We have some budget from the enablement line, but not the full amount yet.',
        'Security review and CRM integration are the two gates. Then procurement.',
        'We are also talking to {competitor}, mainly because we already know them.',
        'Our champion for this internally would be the head of revenue operations.',
      ],
    },
  ],
  demo: [
    {
      name: 'walkthrough',
      seller: [
        'Let me share my screen. This is the deal view your managers would land on every morning.',
        'Here you can see every call on the deal, with the AI notes and the next steps extracted.',
        'This scorecard is generated for each call, with the evidence quoted from the transcript.',
        'And this is the qualification view, MEDDPICC by default, but you can switch to BANT.',
        'The agents run after each call, so nobody has to fill in fields by hand.',
      ],
      buyer: [
        'Can I filter that by team? Our managers only care about their own reps.',
        'How accurate is the transcription when people talk over each other?',
        'That qualification view is interesting, we try to do that in spreadsheets today.',
        'Does it write back to Salesforce, or do we have to copy things over?',
        'Can reps edit the notes if the AI gets something wrong?',
      ],
    },
    {
      name: 'integration and security',
      seller: [
        'Yes, it writes back to Salesforce and HubSpot, including custom fields.',
        'Data stays in the region you choose, and we are SOC 2 Type II certified.',
        'Access follows your roles: reps see their own calls, managers see their teams.',
        'Setup is usually two weeks, most of which is waiting on the CRM admin.',
      ],
      buyer: [
        'Our security team will ask about data retention and who can see recordings.',
        'We have a lot of custom objects in Salesforce, so field mapping matters.',
        'Single sign-on is a must, we use Okta for everything.',
        'Two weeks sounds optimistic, our CRM admin is stretched thin.',
      ],
    },
  ],
  pricing: [
    {
      name: 'pricing',
      seller: [
        'Based on {seats} seats the list price comes to {amount} per year.',
        'We usually structure this as an annual subscription with a ramp for the second half of the team.',
        'There is a multi-year option that brings the per-seat price down by about twelve percent.',
        'Implementation and training are included for this size of rollout.',
      ],
      buyer: [
        'That is higher than we budgeted. We had roughly two thirds of that in mind.',
        'Can we start with one team and expand once we see results?',
        'What is included in the price, and what costs extra?',
        'Our CFO will want to see the payback period before anything else.',
      ],
    },
    {
      name: 'business case',
      seller: [
        'If win rate goes back up by even two points, the tool pays for itself within the year.',
        'Customers of your size typically cut ramp time by six to eight weeks.',
        'I can build the business case with your numbers so your CFO sees your own data.',
      ],
      buyer: [
        'Put the business case together with our numbers and I will take it to the CFO.',
        'The payback story helps. Finance responds to numbers, not features.',
        'We need to compare this against the {competitor} renewal, which is cheaper on paper.',
      ],
    },
  ],
  negotiation: [
    {
      name: 'terms',
      seller: [
        'We reviewed the redlines from your legal team; most of them we can accept as is.',
        'On the liability cap, we can go to twelve months of fees, but not beyond.',
        'If we can sign before the end of the month, I can hold the multi-year discount.',
        'Payment terms of net sixty are fine on our side.',
      ],
      buyer: [
        'Legal still has concerns about the data processing addendum.',
        'Procurement asked for a ninety day termination for convenience clause.',
        'We can get signatures this month if the security review closes this week.',
        'The CFO approved the budget, so it is really about the paperwork now.',
      ],
    },
    {
      name: 'procurement',
      seller: [
        'What does your procurement process look like from here, step by step?',
        'Who needs to sign, and is anyone out of office in the next two weeks?',
        'I will send the order form today with the agreed terms.',
      ],
      buyer: [
        'Once legal signs off, it goes to procurement and then the CFO for signature.',
        'Our fiscal year ends soon, so there is pressure to close this quickly.',
        'Send the final order form and I will route it today.',
      ],
    },
  ],
};

/** The phases of a call of this type, opening and next steps included. */
export function phasesFor(type: CallType): Phase[] {
  return [opening, ...phases[type], closing];
}

export const INTERNAL_LINES = [
  'Let us go through the commit deals first and then the upside.',
  'What changed on this deal since last week?',
  'The champion went quiet after the pricing call, I am worried about it.',
  'I would push for a meeting with the economic buyer before the end of the month.',
  'Your discovery was solid, but you talked for most of the call. Let them talk more.',
  'Good job on the next steps, that is exactly what I want to see on every call.',
  'Can you update the close date in the CRM? It still says last month.',
  'We are at about eighty percent of the number with two weeks left.',
] as const;
