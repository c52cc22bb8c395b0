// Row types of the identity tables (migration 0002-identity), joined into `Database` by intersection.
export type BrowserSessionsTable = {
  id_hash: string;
  org_id: string;
  user_id: string;
  upstream_issuer: string;
  created_at: number;
  expires_at: number;
};

export type UpstreamProviderKind = 'google' | 'microsoft' | 'sso';

export type UpstreamLoginStatesTable = {
  state_hash: string;
  browser_hash: string;
  provider: UpstreamProviderKind;
  sso_org_id: string | null;
  code_verifier: string;
  nonce: string;
  return_to: string | null;
  signup_source: string | null;
  created_at: number;
  expires_at: number;
};

export type IdentityDatabase = {
  browser_sessions: BrowserSessionsTable;
  upstream_login_states: UpstreamLoginStatesTable;
};
