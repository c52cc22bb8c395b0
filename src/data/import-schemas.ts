// One zod schema per imported record type (one NDJSON file each, named <type>.ndjson). Rows refer
// to people by email and to other records by the ids given in earlier files; the organization is
// chosen on the command line, never by a row, so an import cannot write into another tenant.
import { z } from 'zod';

const id = z.string().min(1).max(120).regex(/^[A-Za-z0-9_.:-]+$/, 'ids use letters, digits and _ . : -');
const email = z.string().trim().toLowerCase().pipe(z.email());
const isoTime = z.iso.datetime({ offset: true }).transform((v) => Date.parse(v));
const date = z.iso.date();
const evidence = z.object({ quote: z.string(), speaker: z.string(), side: z.string(), start_s: z.number().min(0), meeting_id: z.string().optional() });

export const ImportSchemas = {
  accounts: z.strictObject({ id, domain: z.string().trim().toLowerCase().min(3).max(253), name: z.string().min(1).max(300) }),
  agents: z.strictObject({
    id,
    name: z.string().min(1).max(200),
    description: z.string().max(2000).default(''),
    category: z.enum(['qualification', 'coaching', 'extraction', 'summary', 'dispatch']),
    type: z.enum(['extraction', 'scoring', 'hybrid', 'dispatch']),
    methodology: z.string().max(40).nullable().default(null),
    scope: z.enum(['meeting', 'deal']),
    properties: z.array(z.object({ key: z.string().min(1), title: z.string().min(1), max_score: z.number().nullable() })).min(1),
    visibility: z.enum(['org', 'team', 'personal']).default('org'),
    team_id: id.nullable().default(null),
    owner_email: email.nullable().default(null),
    is_primary: z.boolean().default(false),
  }),
  deals: z.strictObject({
    id,
    account_id: id,
    name: z.string().min(1).max(300),
    owner_email: email,
    team_id: id.nullable().default(null),
    stage: z.string().min(1).max(60),
    status: z.enum(['open', 'won', 'lost']),
    amount: z.number().min(0),
    currency: z.string().length(3).toUpperCase(),
    close_date: date,
    crm: z
      .object({ system: z.enum(['salesforce', 'hubspot', 'none']), opportunity_id: z.string().nullable().default(null), url: z.url().nullable().default(null), custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}) })
      .default({ system: 'none', opportunity_id: null, url: null, custom_fields: {} }),
  }),
  meetings: z.strictObject({
    id,
    title: z.string().min(1).max(500),
    start: isoTime,
    end: isoTime,
    status: z.enum(['scheduled', 'completed', 'canceled']),
    owner_email: email,
    team_id: id.nullable().default(null),
    deal_id: id.nullable().default(null),
    account_id: id.nullable().default(null),
    meeting_type: z.enum(['internal', 'external']),
    language: z.string().min(2).max(10).default('en'),
    notes: z.object({ summary_md: z.string(), key_points: z.array(z.string()).default([]), next_steps: z.array(z.object({ text: z.string(), owner: z.string().nullable().default(null), due: z.string().nullable().default(null) })).default([]) }).nullable().default(null),
    transcript_reason: z.enum(['not_recorded', 'consent_declined', 'processing']).nullable().default(null),
  }),
  participants: z.strictObject({
    meeting_id: id,
    id: z.number().int().min(1),
    email: email.nullable().default(null),
    name: z.string().min(1).max(200),
    side: z.enum(['seller', 'buyer', 'unknown']),
    company: z.string().max(300).nullable().default(null),
    title: z.string().max(300).nullable().default(null),
    talk_time_ms: z.number().int().min(0).default(0),
  }),
  transcript_segments: z.strictObject({
    meeting_id: id,
    idx: z.number().int().min(0),
    start_ms: z.number().int().min(0),
    end_ms: z.number().int().min(0),
    speaker: z.string().min(1).max(200),
    participant_id: z.number().int().min(1).nullable().default(null),
    text: z.string().min(1).max(20_000),
  }),
  agent_results: z.strictObject({
    agent_id: id,
    meeting_id: id,
    status: z.enum(['ok', 'no_transcript', 'not_run', 'error']),
    generated_at: isoTime,
    properties: z.array(z.object({ key: z.string(), title: z.string(), result_md: z.string(), score: z.number().nullable(), max_score: z.number().nullable(), evidence: z.array(evidence).default([]) })).default([]),
  }),
  qualification_results: z.strictObject({
    deal_id: id,
    agent_id: id,
    dimensions: z.array(z.object({ key: z.string(), title: z.string(), score: z.number(), max_score: z.number(), status: z.enum(['strong', 'partial', 'missing']), summary: z.string(), evidence: z.array(evidence).default([]), gaps: z.array(z.string()).default([]) })).min(1),
    meeting_ids: z.array(id).default([]),
    history: z.array(z.object({ updated_at: z.string(), total_percent: z.number() })).default([]),
    updated_at: isoTime,
  }),
  reports: z.strictObject({
    id,
    title: z.string().min(1).max(500),
    type: z.enum(['weekly', 'deal', 'team', 'custom']),
    period_start: date,
    period_end: date,
    generated_at: isoTime,
    agent_id: id.nullable().default(null),
    team_id: id.nullable().default(null),
    owner_email: email.nullable().default(null),
    visibility: z.enum(['org', 'team', 'personal']),
    sections: z.array(z.object({ id: z.string().min(1).max(120), title: z.string().min(1).max(300), markdown: z.string() })).min(1).max(500),
  }),
} as const;

export type RecordType = keyof typeof ImportSchemas;
/** Files are read in this order, so later files may refer to ids of earlier ones. */
export const IMPORT_ORDER: RecordType[] = ['accounts', 'agents', 'deals', 'meetings', 'participants', 'transcript_segments', 'agent_results', 'qualification_results', 'reports'];
export type ImportRow<T extends RecordType> = z.output<(typeof ImportSchemas)[T]>;
