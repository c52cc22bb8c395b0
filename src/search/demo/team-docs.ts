// Documents visible to one team only: territory plans, compensation accelerators, deal review notes
// and pipeline checklists. Each team's documents carry its own numbers and a code name, so a search
// by another team (or another organization) has nothing to find.
import type { CoreDoc } from './core-docs.ts';

const CODENAMES = ['Aurora', 'Basalt', 'Cypress', 'Dynamo', 'Equinox', 'Fulcrum', 'Gemini', 'Halcyon', 'Ironwood', 'Jetstream'];

export function codenameOf(teamIndex: number): string {
  return CODENAMES[teamIndex % CODENAMES.length] ?? 'Aurora';
}

export function teamDocs(team: { name: string }, teamIndex: number): CoreDoc[] {
  const code = codenameOf(teamIndex);
  const quota = 4 + teamIndex * 1.5;
  const accelerator = (1.5 + (teamIndex % 3) * 0.25).toFixed(2);
  return [
    {
      key: 'territory-plan',
      title: `${team.name} Territory Plan FY2026`,
      source: 'google_drive',
      body: `## Focus accounts for ${team.name}
${team.name} focuses on 40 named accounts under the code name Project ${code}. The top ten accounts get a quarterly executive briefing.

## Targets for ${team.name}
The ${team.name} team target for FY2026 is $${quota.toFixed(1)} million in new annual contract value, with 35 percent expected from expansion of existing customers.

## Coverage model
Each account executive in ${team.name} owns 8 to 12 named accounts and works with one sales development representative.`,
    },
    {
      key: 'comp-accelerators',
      title: `${team.name} Compensation Plan and Accelerators`,
      source: 'onedrive',
      body: `## Commission rates for ${team.name}
Account executives in ${team.name} earn 10 percent commission on new annual contract value up to 100 percent of quota.

## Accelerators above quota
Above 100 percent of quota, ${team.name} pays an accelerator of ${accelerator} times the base commission rate (Project ${code} plan). Multi-year deals count the first year only.

## SPIFFs this quarter
This quarter ${team.name} pays a $2,000 SPIFF for every new Enterprise logo signed before the end of the quarter.`,
    },
    {
      key: 'pipeline-hygiene',
      title: `${team.name} Weekly Pipeline Hygiene Checklist`,
      source: 'google_drive',
      body: `## Before the Monday forecast call
Every account executive in ${team.name} updates next steps, close dates and forecast categories by Friday 17:00.

## Stale deals
A deal with no meeting in 21 days is stale and must get a new next step or be moved out of the quarter. The ${team.name} manager reviews stale deals in the weekly 1:1.`,
    },
  ];
}
