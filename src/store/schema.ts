// Row types of every table, as Kysely sees them. Times are epoch milliseconds; booleans 0/1;
// JSON columns hold text that the repositories parse with zod.
import type { SalesDatabase } from './sales/schema.ts';
import type { OAuthDatabase } from './oauth-schema.ts';
import type { SearchDatabase } from '../search/schema.ts';
import type { IdentityDatabase } from '../identity/schema.ts';

export type OrganizationsTable = {
  id: string;
  name: string;
  plan: 'trial' | 'paid' | 'expired';
  trial_ends_at: number | null;
  seats: number | null;
  auto_join_by_domain: number;
  restrict_meeting_details_to_participants: number;
  sso_issuer: string | null;
  sso_client_id: string | null;
  sso_client_secret_enc: string | null;
  sso_domains: string | null;
  created_at: number;
  updated_at: number;
};

export type OrgDomainsTable = { domain: string; org_id: string; verified: number; created_at: number };

export type Role = 'admin' | 'manager' | 'member' | 'viewer';
export type UserStatus = 'active' | 'disabled';

export type UsersTable = {
  org_id: string;
  id: string;
  email: string;
  name: string;
  role: Role;
  timezone: string;
  status: UserStatus;
  signup_source: string | null;
  created_at: number;
  updated_at: number;
  last_sign_in_at: number | null;
};

export type UserIdentitiesTable = {
  issuer: string;
  subject: string;
  org_id: string;
  user_id: string;
  email: string | null;
  created_at: number;
  last_used_at: number;
};

export type TeamsTable = {
  org_id: string;
  id: string;
  name: string;
  parent_team_id: string | null;
  created_at: number;
  updated_at: number;
};

export type TeamMembersTable = { org_id: string; team_id: string; user_id: string; is_manager: number; created_at: number };

export type OAuthClientsTable = {
  client_id: string;
  kind: 'dynamic' | 'metadata_document' | 'first_party';
  client_name: string | null;
  redirect_uris: string;
  grant_types: string;
  response_types: string;
  token_endpoint_auth_method: 'none' | 'client_secret_basic' | 'client_secret_post';
  scope: string;
  secret_hash: string | null;
  registration_token_hash: string | null;
  application_type: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  software_id: string | null;
  software_version: string | null;
  created_at: number;
  updated_at: number;
  last_used_at: number;
  metadata_expires_at: number | null;
};

export type Database = SalesDatabase & SearchDatabase & OAuthDatabase & IdentityDatabase & {
  organizations: OrganizationsTable;
  org_domains: OrgDomainsTable;
  users: UsersTable;
  user_identities: UserIdentitiesTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  oauth_clients: OAuthClientsTable;
};
