// Customer case studies, as many as asked for: customer, industry, numbers and the tool they
// replaced come from the index through fixed tables, so case study i is always the same text.
import type { CoreDoc } from './core-docs.ts';

const PREFIX = ['Acme', 'Bluefin', 'Cedar', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor', 'Iris', 'Juniper', 'Keystone', 'Lumen', 'Meridian', 'Nimbus', 'Orchid', 'Pioneer', 'Quarry', 'Redwood', 'Summit', 'Tidal', 'Umber', 'Vertex', 'Willow', 'Yarrow', 'Zephyr', 'Atlas', 'Beacon', 'Cobalt', 'Drift', 'Evergreen', 'Falcon', 'Glacier', 'Helix'];
const SUFFIX: [string, string][] = [
  ['Logistics', 'Logistics'], ['Health', 'Healthcare'], ['Robotics', 'Manufacturing'], ['Bank', 'Financial Services'], ['Analytics', 'Software and SaaS'],
  ['Telecom', 'Telecom'], ['Energy', 'Energy'], ['Insurance', 'Financial Services'], ['Labs', 'Software and SaaS'], ['Systems', 'Software and SaaS'],
  ['Freight', 'Logistics'], ['Education', 'Education'], ['Retail', 'Retail'], ['Pharma', 'Healthcare'], ['Manufacturing', 'Manufacturing'],
];
const REPLACED = ['spreadsheets and manual call notes', 'Callwise', 'Pipestream', 'Forecastly', 'Cadence One', 'a homegrown recording setup'];
const GOALS = ['cut new-hire ramp time', 'raise win rates in competitive deals', 'make the forecast reliable', 'coach a fast-growing team consistently', 'inspect deals without extra meetings'];

/** The i-th case study (i ≥ 0); customer names repeat only with a numeral after the 495th. */
export function caseStudy(i: number): CoreDoc {
  const prefix = PREFIX[i % PREFIX.length] ?? 'Acme';
  const [suffix, industry] = SUFFIX[(i * 7 + Math.floor(i / PREFIX.length)) % SUFFIX.length] ?? ['Labs', 'Software and SaaS'];
  const round = Math.floor(i / (PREFIX.length * SUFFIX.length));
  const customer = `${prefix} ${suffix}${round ? ` ${round + 1}` : ''}`;
  const seats = 20 + ((i * 37) % 480);
  const replaced = REPLACED[(i * 5) % REPLACED.length] ?? REPLACED[0];
  const goal = GOALS[(i * 3) % GOALS.length] ?? GOALS[0];
  const ramp = 3 + ((i * 11) % 9);
  const winRate = 3 + ((i * 13) % 10);
  const accuracy = 4 + ((i * 17) % 9);
  const live = 4 + ((i * 19) % 8);
  const key = `case-study-${customer.toLowerCase().replace(/\W+/g, '-')}`;
  return {
    key,
    title: `Case Study: ${customer}`,
    source: i % 3 === 0 ? 'highspot' : i % 3 === 1 ? 'google_drive' : 'upload',
    body: `## About ${customer}
${customer} is a ${industry.toLowerCase()} company with ${seats} sellers. It bought {product} on the ${seats >= 200 ? 'Enterprise' : 'Growth'} plan.

## The challenge at ${customer}
${customer} wanted to ${goal}. Before {product}, the team relied on ${replaced}, and managers reviewed fewer than two calls per rep each month.

## Why ${customer} chose {product}
${customer} chose {product} for its coaching scorecards, the CRM integration and a go-live in ${live} weeks.

## Results at ${customer}
Within two quarters ${customer} reduced ramp time by ${ramp} weeks, raised its win rate by ${winRate} points and brought forecast accuracy to within ${accuracy} percent.`,
  };
}
