// Parameter schemas shared by several tools, each described for the model (what it is, its
// format, which tool produces it). Built once at module load.
import { z } from 'zod';

export const limitParam = (what: string) =>
  z.number().int().min(1).max(100).default(25).describe(`How many ${what} per page (1–100, default 25). Follow next_cursor for more.`);

export const cursorParam = (tool: string) =>
  z.string().min(1).max(2000).optional().describe(`Opaque next_cursor from the previous ${tool} result, with the same other arguments. Omit for the first page.`);

export const meetingIdParam = z.string().min(1).max(120).describe('Meeting id (mtg_…), as returned by list_meetings, get_deal or agent_results.');

export const dealIdParam = z
  .union([z.string().min(1).max(120), z.number().int()])
  .transform(String)
  .describe('Deal id (deal_…) from get_deals or get_meeting. With prospect_org, a CRM opportunity id is accepted too.');

export const prospectOrgParam = z
  .string()
  .min(1)
  .max(253)
  .optional()
  .describe('The prospect company\'s web domain, e.g. "acmelogistics.example" (prospect_org in list_meetings and get_deals results).');

export const ownerParam = z
  .string()
  .min(1)
  .max(320)
  .optional()
  .describe('"me" for the caller, or a colleague\'s email address (get_teams lists them).');

export const teamIdParam = z.string().min(1).max(120).optional().describe('Team id (team_…) from get_teams.');

export const templateIdParam = z.string().min(1).max(120).describe('Agent template id (agt_…) from list_agents.');

export const maxCharsParam = (def: number, max: number) =>
  z.number().int().min(1000).max(max).default(def).describe(`Character budget for this page (1,000–${max.toLocaleString('en-US')}, default ${def.toLocaleString('en-US')}; about 4 characters per token). Follow next_cursor for the rest.`);

export const includeEvidenceParam = z.boolean().default(true).describe('Include the quoted evidence (speaker, time) behind each score. Default true; false for a shorter result.');

/** Normalizes a prospect org given as a domain, an email address or a URL. */
export function normalizeProspectOrg(value: string): string {
  let v = value.trim().toLowerCase();
  if (v.includes('@')) v = v.slice(v.lastIndexOf('@') + 1);
  v = v.replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, '').replace(/^www\./, '');
  return v;
}
