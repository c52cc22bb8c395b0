// Row types of the authorization server's tables (migration 0003-oauth), joined into Database in schema.ts.

export type OAuthGrantsTable = {
  org_id: string;
  id: string;
  user_id: string;
  client_id: string;
  scope: string;
  resource: string;
  created_at: number;
  last_used_at: number;
  /** The absolute cap: no refresh token of this grant outlives it. */
  expires_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
};

export type OAuthCodesTable = {
  code_hash: string;
  client_id: string;
  org_id: string;
  user_id: string;
  session_id: string | null;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  grant_id: string | null;
};

export type OAuthAccessTokensTable = {
  token_hash: string;
  org_id: string;
  grant_id: string;
  scope: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
};

export type OAuthRefreshTokensTable = {
  token_hash: string;
  org_id: string;
  grant_id: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  request_fingerprint: string | null;
  grace_response_enc: string | null;
  revoked_at: number | null;
};

export type OAuthConsentsTable = {
  org_id: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  resource: string;
  scope: string;
  created_at: number;
  updated_at: number;
};

export type OAuthPendingRequestsTable = {
  handle_hash: string;
  client_id: string;
  request: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
};

export type AuditEventsTable = {
  id: string;
  org_id: string | null;
  user_id: string | null;
  client_id: string | null;
  kind: string;
  detail: string;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
};

/** Periodic jobs' last starts, shared by every instance (store/job-runs.ts). */
export type JobRunsTable = {
  name: string;
  started_at: number;
};

export type OAuthDatabase = {
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_access_tokens: OAuthAccessTokensTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  oauth_consents: OAuthConsentsTable;
  oauth_pending_requests: OAuthPendingRequestsTable;
  audit_events: AuditEventsTable;
  job_runs: JobRunsTable;
};
