// Row types of the sales-data tables (migration 0004). Times are epoch milliseconds; booleans 0/1;
// JSON columns hold text that the repositories parse with zod. Every table leads with org_id.
import type { ColumnType } from 'kysely';

export type AccountsTable = { org_id: string; id: string; domain: string; name: string; created_at: number };

export type DealsTable = {
  org_id: string;
  id: string;
  account_id: string;
  name: string;
  owner_id: string;
  team_id: string | null;
  stage: string;
  status: 'open' | 'won' | 'lost';
  amount: number;
  currency: string;
  /** YYYY-MM-DD */
  close_date: string;
  crm_system: 'salesforce' | 'hubspot' | 'none';
  crm_opportunity_id: string | null;
  crm_url: string | null;
  crm_custom_fields: string;
  created_at: number;
  updated_at: number;
};

export type MeetingsTable = {
  org_id: string;
  id: string;
  title: string;
  start_at: number;
  end_at: number;
  status: 'scheduled' | 'completed' | 'canceled';
  owner_id: string;
  team_id: string | null;
  deal_id: string | null;
  account_id: string | null;
  meeting_type: 'internal' | 'external';
  language: string;
  summary_md: string | null;
  key_points: string;
  next_steps: string;
  has_transcript: number;
  /** Why there is no transcript (not_recorded, processing, consent_declined, scheduled), or null. */
  transcript_reason: string | null;
  segment_count: number;
  transcript_chars: number;
  created_at: number;
};

export type ParticipantsTable = {
  org_id: string;
  meeting_id: string;
  id: number;
  email: string | null;
  name: string;
  user_id: string | null;
  side: 'seller' | 'buyer' | 'unknown';
  company: string | null;
  title: string | null;
  talk_time_ms: number;
};

/**
 * The participants table as stored: also its meeting's start and deal, copied by triggers
 * (migrations 0011, 0018), never written by code; null while the meeting is missing (the deal also
 * once it is deleted, or when it has none).
 */
type StoredParticipants = ParticipantsTable & { start_at: ColumnType<number | null, never, never>; deal_id: ColumnType<string | null, never, never> };

export type TranscriptSegmentsTable = {
  org_id: string;
  meeting_id: string;
  idx: number;
  start_ms: number;
  end_ms: number;
  speaker: string;
  participant_id: number | null;
  text: string;
};

export type AgentsTable = {
  org_id: string;
  id: string;
  name: string;
  category: 'qualification' | 'coaching' | 'extraction' | 'summary' | 'dispatch';
  type: 'extraction' | 'scoring' | 'hybrid' | 'dispatch';
  methodology: string | null;
  scope: 'meeting' | 'deal';
  properties: string;
  visibility: 'org' | 'team' | 'personal';
  team_id: string | null;
  owner_id: string | null;
  is_primary: number;
  description: string;
  created_at: number;
};

export type AgentResultsTable = {
  org_id: string;
  agent_id: string;
  meeting_id: string;
  status: 'ok' | 'no_transcript' | 'not_run' | 'error';
  generated_at: number;
  properties: string;
};

export type QualificationResultsTable = {
  org_id: string;
  deal_id: string;
  agent_id: string;
  dimensions: string;
  meeting_ids: string;
  history: string;
  updated_at: number;
};

export type ReportsTable = {
  org_id: string;
  id: string;
  title: string;
  type: 'weekly' | 'deal' | 'team' | 'custom';
  /** YYYY-MM-DD */
  period_start: string;
  period_end: string;
  generated_at: number;
  agent_id: string | null;
  team_id: string | null;
  owner_id: string | null;
  visibility: 'org' | 'team' | 'personal';
  section_count: number;
  total_chars: number;
};

export type ReportSectionsTable = {
  org_id: string;
  report_id: string;
  idx: number;
  section_id: string;
  title: string;
  markdown: string;
};

/** Each meeting's title and participants' names, emails and companies in one text, kept by triggers (migration 0020). */
export type MeetingSearchTextTable = { org_id: string; meeting_id: string; body: string };

export type SalesDatabase = {
  accounts: AccountsTable;
  deals: DealsTable;
  meetings: MeetingsTable;
  participants: StoredParticipants;
  transcript_segments: TranscriptSegmentsTable;
  agents: AgentsTable;
  agent_results: AgentResultsTable;
  qualification_results: QualificationResultsTable;
  reports: ReportsTable;
  report_sections: ReportSectionsTable;
  meeting_search_text: MeetingSearchTextTable;
};
