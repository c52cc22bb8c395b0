// Sales data: accounts, deals, meetings, participants, transcripts, agents and their results,
// qualification results, reports. Portable SQL only (ids and times come from TypeScript).
// Every tenant table leads its primary key and every index with org_id, and every list a tool
// offers has a keyset index ending in the tie-breaking id (no OFFSET anywhere).
import type { Kysely } from 'kysely';

type Col = [name: string, type: 'text' | 'bigint' | 'integer', notNull: boolean];

async function table(db: Kysely<unknown>, name: string, cols: Col[], pk: string[]): Promise<void> {
  let builder = db.schema.createTable(name);
  for (const [col, type, notNull] of cols) builder = builder.addColumn(col, type, (c) => (notNull ? c.notNull() : c));
  await builder.addPrimaryKeyConstraint(`${name}_pk`, pk as never[]).execute();
}

async function index(db: Kysely<unknown>, name: string, on: string, columns: string[]): Promise<void> {
  await db.schema.createIndex(name).on(on).columns(columns).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await table(db, 'accounts', [['org_id', 'text', true], ['id', 'text', true], ['domain', 'text', true], ['name', 'text', true], ['created_at', 'bigint', true]], ['org_id', 'id']);
  await index(db, 'accounts_domain', 'accounts', ['org_id', 'domain']);

  await table(
    db,
    'deals',
    [
      ['org_id', 'text', true], ['id', 'text', true], ['account_id', 'text', true], ['name', 'text', true],
      ['owner_id', 'text', true], ['team_id', 'text', false], ['stage', 'text', true], ['status', 'text', true],
      ['amount', 'bigint', true], ['currency', 'text', true], ['close_date', 'text', true],
      ['crm_system', 'text', true], ['crm_opportunity_id', 'text', false], ['crm_url', 'text', false],
      ['crm_custom_fields', 'text', true], ['created_at', 'bigint', true], ['updated_at', 'bigint', true],
    ],
    ['org_id', 'id'],
  );
  await index(db, 'deals_status_close', 'deals', ['org_id', 'status', 'close_date', 'id']);
  await index(db, 'deals_owner_close', 'deals', ['org_id', 'owner_id', 'status', 'close_date', 'id']);
  await index(db, 'deals_account', 'deals', ['org_id', 'account_id', 'id']);
  await index(db, 'deals_team', 'deals', ['org_id', 'team_id', 'status', 'close_date', 'id']);
  await index(db, 'deals_crm', 'deals', ['org_id', 'crm_opportunity_id']);

  await table(
    db,
    'meetings',
    [
      ['org_id', 'text', true], ['id', 'text', true], ['title', 'text', true], ['start_at', 'bigint', true], ['end_at', 'bigint', true],
      ['status', 'text', true], ['owner_id', 'text', true], ['team_id', 'text', false], ['deal_id', 'text', false],
      ['account_id', 'text', false], ['meeting_type', 'text', true], ['language', 'text', true], ['summary_md', 'text', false],
      ['key_points', 'text', true], ['next_steps', 'text', true], ['has_transcript', 'integer', true],
      ['transcript_reason', 'text', false], ['segment_count', 'integer', true], ['transcript_chars', 'integer', true],
      ['created_at', 'bigint', true],
    ],
    ['org_id', 'id'],
  );
  // Keyset lists: by time (whole org), by owner, by deal, by account, by team.
  await index(db, 'meetings_start', 'meetings', ['org_id', 'start_at', 'id']);
  await index(db, 'meetings_owner_start', 'meetings', ['org_id', 'owner_id', 'start_at', 'id']);
  await index(db, 'meetings_deal_start', 'meetings', ['org_id', 'deal_id', 'start_at', 'id']);
  await index(db, 'meetings_account_start', 'meetings', ['org_id', 'account_id', 'start_at', 'id']);
  await index(db, 'meetings_team_start', 'meetings', ['org_id', 'team_id', 'start_at', 'id']);

  await table(
    db,
    'participants',
    [
      ['org_id', 'text', true], ['meeting_id', 'text', true], ['id', 'integer', true], ['email', 'text', false], ['name', 'text', true],
      ['user_id', 'text', false], ['side', 'text', true], ['company', 'text', false], ['title', 'text', false], ['talk_time_ms', 'bigint', true],
    ],
    ['org_id', 'meeting_id', 'id'],
  );
  // "Attended" = the user's email among the participants: the viewer's list starts here.
  await index(db, 'participants_email', 'participants', ['org_id', 'email', 'meeting_id']);

  await table(
    db,
    'transcript_segments',
    [
      ['org_id', 'text', true], ['meeting_id', 'text', true], ['idx', 'integer', true], ['start_ms', 'bigint', true], ['end_ms', 'bigint', true],
      ['speaker', 'text', true], ['participant_id', 'integer', false], ['text', 'text', true],
    ],
    ['org_id', 'meeting_id', 'idx'],
  );
  // Time windows scan one meeting's segments through the primary key (at most a few thousand rows).

  await table(
    db,
    'agents',
    [
      ['org_id', 'text', true], ['id', 'text', true], ['name', 'text', true], ['category', 'text', true], ['type', 'text', true],
      ['methodology', 'text', false], ['scope', 'text', true], ['properties', 'text', true], ['visibility', 'text', true],
      ['team_id', 'text', false], ['owner_id', 'text', false], ['is_primary', 'integer', true], ['description', 'text', true],
      ['created_at', 'bigint', true],
    ],
    ['org_id', 'id'],
  );
  await index(db, 'agents_name', 'agents', ['org_id', 'name', 'id']);

  await table(
    db,
    'agent_results',
    [['org_id', 'text', true], ['agent_id', 'text', true], ['meeting_id', 'text', true], ['status', 'text', true], ['generated_at', 'bigint', true], ['properties', 'text', true]],
    ['org_id', 'agent_id', 'meeting_id'],
  );
  await index(db, 'agent_results_meeting', 'agent_results', ['org_id', 'meeting_id', 'agent_id']);

  await table(
    db,
    'qualification_results',
    [['org_id', 'text', true], ['deal_id', 'text', true], ['agent_id', 'text', true], ['dimensions', 'text', true], ['meeting_ids', 'text', true], ['history', 'text', true], ['updated_at', 'bigint', true]],
    ['org_id', 'deal_id', 'agent_id'],
  );

  await table(
    db,
    'reports',
    [
      ['org_id', 'text', true], ['id', 'text', true], ['title', 'text', true], ['type', 'text', true], ['period_start', 'text', true],
      ['period_end', 'text', true], ['generated_at', 'bigint', true], ['agent_id', 'text', false], ['team_id', 'text', false],
      ['owner_id', 'text', false], ['visibility', 'text', true], ['section_count', 'integer', true], ['total_chars', 'integer', true],
    ],
    ['org_id', 'id'],
  );
  await index(db, 'reports_period', 'reports', ['org_id', 'period_end', 'id']);
  await index(db, 'reports_team_period', 'reports', ['org_id', 'team_id', 'period_end', 'id']);
  await index(db, 'reports_owner_period', 'reports', ['org_id', 'owner_id', 'period_end', 'id']);

  await table(
    db,
    'report_sections',
    [['org_id', 'text', true], ['report_id', 'text', true], ['idx', 'integer', true], ['section_id', 'text', true], ['title', 'text', true], ['markdown', 'text', true]],
    ['org_id', 'report_id', 'idx'],
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['report_sections', 'reports', 'qualification_results', 'agent_results', 'agents', 'transcript_segments', 'participants', 'meetings', 'deals', 'accounts']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
