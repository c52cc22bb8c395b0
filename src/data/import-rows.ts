// Turns one validated import row into table rows, checking its references inside the organization.
import type { Database } from '../store/schema.ts';
import type { ImportRow, RecordType } from './import-schemas.ts';

export type Lookups = {
  orgId: string;
  userByEmail: Map<string, string>;
  accounts: Set<string>;
  deals: Set<string>;
  meetings: Set<string>;
  agents: Set<string>;
  teams: Set<string>;
};

type Out = { rows: [keyof Database, Record<string, unknown>][] } | { error: string };

function missing(what: string, value: string, file: string): { error: string } {
  return { error: `${what} ${JSON.stringify(value)} does not exist in this organization (import ${file}.ndjson first, or create it)` };
}

export function toRows(type: RecordType, input: unknown, k: Lookups): Out {
  const org_id = k.orgId;
  const user = (email: string | null) => (email === null ? null : (k.userByEmail.get(email) ?? undefined));
  const team = (id: string | null) => id === null || k.teams.has(id);
  switch (type) {
    case 'accounts': {
      const r = input as ImportRow<'accounts'>;
      return { rows: [['accounts', { org_id, id: r.id, domain: r.domain, name: r.name, created_at: Date.now() }]] };
    }
    case 'agents': {
      const r = input as ImportRow<'agents'>;
      const owner = user(r.owner_email);
      if (owner === undefined) return { error: `owner_email ${r.owner_email} is not a user of this organization` };
      if (!team(r.team_id)) return missing('team_id', r.team_id!, 'teams');
      if (r.visibility === 'team' && !r.team_id) return { error: 'visibility "team" needs a team_id' };
      if (r.visibility === 'personal' && !owner) return { error: 'visibility "personal" needs an owner_email' };
      k.agents.add(r.id);
      return {
        rows: [['agents', { org_id, id: r.id, name: r.name, category: r.category, type: r.type, methodology: r.methodology, scope: r.scope, properties: JSON.stringify(r.properties), visibility: r.visibility, team_id: r.team_id, owner_id: owner, is_primary: r.is_primary ? 1 : 0, description: r.description, created_at: Date.now() }]],
      };
    }
    case 'deals': {
      const r = input as ImportRow<'deals'>;
      const owner = user(r.owner_email);
      if (!owner) return { error: `owner_email ${r.owner_email} is not a user of this organization` };
      // Deal counts and pages rely on this (store/sales/deals.ts): a count skips the join to accounts,
      // and a page joins them after its limit, so a deal without its account would shorten the page.
      if (!k.accounts.has(r.account_id)) return missing('account_id', r.account_id, 'accounts');
      if (!team(r.team_id)) return missing('team_id', r.team_id!, 'teams');
      k.deals.add(r.id);
      const now = Date.now();
      return {
        rows: [['deals', { org_id, id: r.id, account_id: r.account_id, name: r.name, owner_id: owner, team_id: r.team_id, stage: r.stage, status: r.status, amount: Math.round(r.amount), currency: r.currency, close_date: r.close_date, crm_system: r.crm.system, crm_opportunity_id: r.crm.opportunity_id, crm_url: r.crm.url, crm_custom_fields: JSON.stringify(r.crm.custom_fields), created_at: now, updated_at: now }]],
      };
    }
    case 'meetings': {
      const r = input as ImportRow<'meetings'>;
      const owner = user(r.owner_email);
      if (!owner) return { error: `owner_email ${r.owner_email} is not a user of this organization` };
      if (r.end < r.start) return { error: 'end is before start' };
      if (r.deal_id && !k.deals.has(r.deal_id)) return missing('deal_id', r.deal_id, 'deals');
      if (r.account_id && !k.accounts.has(r.account_id)) return missing('account_id', r.account_id, 'accounts');
      if (!team(r.team_id)) return missing('team_id', r.team_id!, 'teams');
      k.meetings.add(r.id);
      return {
        rows: [['meetings', {
          org_id, id: r.id, title: r.title, start_at: r.start, end_at: r.end, status: r.status, owner_id: owner, team_id: r.team_id, deal_id: r.deal_id, account_id: r.account_id,
          meeting_type: r.meeting_type, language: r.language, summary_md: r.notes?.summary_md ?? null, key_points: JSON.stringify(r.notes?.key_points ?? []), next_steps: JSON.stringify(r.notes?.next_steps ?? []),
          has_transcript: 0, transcript_reason: r.transcript_reason ?? (r.status === 'scheduled' ? 'scheduled' : r.status === 'canceled' ? 'canceled' : 'not_recorded'), segment_count: 0, transcript_chars: 0, created_at: r.start,
        }]],
      };
    }
    case 'participants': {
      const r = input as ImportRow<'participants'>;
      if (!k.meetings.has(r.meeting_id)) return missing('meeting_id', r.meeting_id, 'meetings');
      const userId = r.email ? (k.userByEmail.get(r.email) ?? null) : null;
      return { rows: [['participants', { org_id, meeting_id: r.meeting_id, id: r.id, email: r.email, name: r.name, user_id: userId, side: r.side, company: r.company, title: r.title, talk_time_ms: r.talk_time_ms }]] };
    }
    case 'transcript_segments': {
      const r = input as ImportRow<'transcript_segments'>;
      if (!k.meetings.has(r.meeting_id)) return missing('meeting_id', r.meeting_id, 'meetings');
      if (r.end_ms < r.start_ms) return { error: 'end_ms is before start_ms' };
      return { rows: [['transcript_segments', { org_id, meeting_id: r.meeting_id, idx: r.idx, start_ms: r.start_ms, end_ms: r.end_ms, speaker: r.speaker, participant_id: r.participant_id, text: r.text }]] };
    }
    case 'agent_results': {
      const r = input as ImportRow<'agent_results'>;
      if (!k.agents.has(r.agent_id)) return missing('agent_id', r.agent_id, 'agents');
      if (!k.meetings.has(r.meeting_id)) return missing('meeting_id', r.meeting_id, 'meetings');
      return { rows: [['agent_results', { org_id, agent_id: r.agent_id, meeting_id: r.meeting_id, status: r.status, generated_at: r.generated_at, properties: JSON.stringify(r.properties) }]] };
    }
    case 'qualification_results': {
      const r = input as ImportRow<'qualification_results'>;
      if (!k.agents.has(r.agent_id)) return missing('agent_id', r.agent_id, 'agents');
      if (!k.deals.has(r.deal_id)) return missing('deal_id', r.deal_id, 'deals');
      return { rows: [['qualification_results', { org_id, deal_id: r.deal_id, agent_id: r.agent_id, dimensions: JSON.stringify(r.dimensions), meeting_ids: JSON.stringify(r.meeting_ids), history: JSON.stringify(r.history), updated_at: r.updated_at }]] };
    }
    case 'reports': {
      const r = input as ImportRow<'reports'>;
      const owner = user(r.owner_email);
      if (owner === undefined) return { error: `owner_email ${r.owner_email} is not a user of this organization` };
      if (r.agent_id && !k.agents.has(r.agent_id)) return missing('agent_id', r.agent_id, 'agents');
      if (!team(r.team_id)) return missing('team_id', r.team_id!, 'teams');
      if (r.visibility === 'team' && !r.team_id) return { error: 'visibility "team" needs a team_id' };
      if (r.visibility === 'personal' && !owner) return { error: 'visibility "personal" needs an owner_email' };
      if (new Set(r.sections.map((s) => s.id)).size !== r.sections.length) return { error: 'section ids must be unique within a report' };
      return {
        rows: [
          ['reports', { org_id, id: r.id, title: r.title, type: r.type, period_start: r.period_start, period_end: r.period_end, generated_at: r.generated_at, agent_id: r.agent_id, team_id: r.team_id, owner_id: owner, visibility: r.visibility, section_count: r.sections.length, total_chars: r.sections.reduce((n, s) => n + s.title.length + s.markdown.length, 0) }],
          ...r.sections.map((s, idx): [keyof Database, Record<string, unknown>] => ['report_sections', { org_id, report_id: r.id, idx, section_id: s.id, title: s.title, markdown: s.markdown }]),
        ],
      };
    }
  }
}
