// RFC 7591 §2 client metadata, parsed at the boundary. Unknown fields are ignored; privileged ones
// (client_id, client_secret, skip_consent, trusted, first_party) are never read (AS-33).
import { z } from 'zod';
import { InvalidClientMetadata, InvalidRedirectUri } from '../errors.ts';
import { MAX_REDIRECT_URIS, registrationProblem } from '../redirect-uris.ts';
import { DROPPED_SCOPES, SUPPORTED_SCOPES } from '../resource.ts';
import type { TokenEndpointAuthMethod } from '../../store/oauth-clients.ts';

export const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export const DEFAULT_SCOPE = 'mcp offline_access';
export const MAX_CLIENT_NAME = 200;

/**
 * Every text value a client supplies is stored and may be shown: no control characters (C0, DEL,
 * C1; PostgreSQL refuses NUL in text) and no unpaired surrogates (not storable as UTF-8). Checked
 * here, at the boundary, for registrations and client metadata documents alike. Types and the
 * other rules per field follow below.
 */
const UNSAFE_TEXT = /[\p{Cc}\p{Cs}]/u;
const TEXT_PROBLEM = 'must not contain control characters or unpaired surrogates';
const safeText = (v: unknown) => typeof v !== 'string' || !UNSAFE_TEXT.test(v);
const Text = z.unknown().refine(safeText, { error: TEXT_PROBLEM }).optional();
const TextList = z.unknown().refine((v) => !Array.isArray(v) || v.every(safeText), { error: TEXT_PROBLEM }).optional();

const Metadata = z.looseObject({
  redirect_uris: TextList,
  client_name: Text,
  token_endpoint_auth_method: Text,
  grant_types: TextList,
  response_types: TextList,
  scope: Text,
  application_type: Text,
  client_uri: Text,
  logo_uri: Text,
  policy_uri: Text,
  tos_uri: Text,
  software_id: Text,
  software_version: Text,
});

export type ClientMetadata = {
  redirectUris: string[];
  clientName: string | null;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  grantTypes: string[];
  responseTypes: string[];
  scope: string;
  applicationType: string | null;
  clientUri: string | null;
  logoUri: string | null;
  policyUri: string | null;
  tosUri: string | null;
  softwareId: string | null;
  softwareVersion: string | null;
};

const fail = (field: string, problem: string) => new InvalidClientMetadata(`${field}: ${problem}`);

function optionalString(value: unknown, field: string, max = 2048): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw fail(field, 'must be a string');
  if (value.length > max) throw fail(field, `must be at most ${max} characters`);
  return value;
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw fail(field, 'must be an array of strings');
  return value as string[];
}

function redirectUris(value: unknown): string[] {
  const list = stringList(value, 'redirect_uris');
  if (!list || list.length === 0) throw new InvalidRedirectUri('redirect_uris: at least one redirect URI is required');
  if (list.length > MAX_REDIRECT_URIS) throw new InvalidRedirectUri(`redirect_uris: at most ${MAX_REDIRECT_URIS} entries`);
  for (const uri of list) {
    const problem = registrationProblem(uri);
    if (problem) throw new InvalidRedirectUri(`redirect_uris: ${problem}`);
  }
  return [...new Set(list)];
}

/** AS-33: no control or bidirectional-override characters (no faking a user or a verified badge). */
function clientName(value: unknown): string | null {
  const name = optionalString(value, 'client_name', MAX_CLIENT_NAME);
  if (name === null) return null;
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(name)) throw fail('client_name', 'must not contain control or formatting characters');
  return name.trim() || null;
}

function authMethod(value: unknown): TokenEndpointAuthMethod {
  if (value === undefined || value === null) return 'client_secret_basic'; // RFC 7591 §2 default (AS-60)
  const found = AUTH_METHODS.find((m) => m === value);
  if (!found) throw fail('token_endpoint_auth_method', `must be one of ${AUTH_METHODS.join(', ')}`);
  return found;
}

/** AS-61: only the code flow with refresh; the two lists must agree (RFC 7591 §2.1). */
function grantAndResponseTypes(grants: unknown, responses: unknown): { grantTypes: string[]; responseTypes: string[] } {
  const grantTypes = stringList(grants, 'grant_types') ?? ['authorization_code', 'refresh_token'];
  const responseTypes = stringList(responses, 'response_types') ?? ['code'];
  for (const g of grantTypes) {
    if (g !== 'authorization_code' && g !== 'refresh_token') throw fail('grant_types', `${g} is not supported (only authorization_code and refresh_token)`);
  }
  for (const r of responseTypes) if (r !== 'code') throw fail('response_types', `${r} is not supported (only code)`);
  if (!grantTypes.includes('authorization_code')) throw fail('grant_types', 'must include authorization_code');
  if (responseTypes.length === 0) throw fail('response_types', 'must include code when grant_types has authorization_code');
  return { grantTypes: [...new Set(grantTypes)], responseTypes: ['code'] };
}

/** P11: scope-less registrations get `mcp offline_access`; identity scopes are dropped; nothing else is granted. */
function scope(value: unknown): string {
  const text = optionalString(value, 'scope', 1000);
  if (text === null) return DEFAULT_SCOPE;
  const asked = text.split(' ').filter((s) => s && !DROPPED_SCOPES.has(s));
  const unknown = asked.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw fail('scope', `unsupported scope ${unknown[0]} (supported: ${SUPPORTED_SCOPES.join(' ')})`);
  return asked.length ? [...new Set(asked)].join(' ') : DEFAULT_SCOPE;
}

/** AS-62: informational URIs must be https. */
function httpsUri(value: unknown, field: string): string | null {
  const uri = optionalString(value, field);
  if (uri === null) return null;
  try {
    if (new URL(uri).protocol === 'https:') return uri;
  } catch {
    // falls through to the error
  }
  throw fail(field, 'must be an https URI');
}

export function parseClientMetadata(body: unknown): ClientMetadata {
  const parsed = Metadata.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    if (typeof field !== 'string' || !issue) throw new InvalidClientMetadata('The request body must be a JSON object');
    // RFC 7591 §3.2.2: a bad redirect URI has its own error code.
    throw field === 'redirect_uris' ? new InvalidRedirectUri(`${field}: ${issue.message}`) : fail(field, issue.message);
  }
  const m = parsed.data;
  return {
    redirectUris: redirectUris(m.redirect_uris),
    clientName: clientName(m.client_name),
    tokenEndpointAuthMethod: authMethod(m.token_endpoint_auth_method),
    ...grantAndResponseTypes(m.grant_types, m.response_types),
    scope: scope(m.scope),
    // Recorded, never used for policy (P4).
    applicationType: optionalString(m.application_type, 'application_type', 20),
    clientUri: httpsUri(m.client_uri, 'client_uri'),
    logoUri: httpsUri(m.logo_uri, 'logo_uri'),
    policyUri: httpsUri(m.policy_uri, 'policy_uri'),
    tosUri: httpsUri(m.tos_uri, 'tos_uri'),
    softwareId: optionalString(m.software_id, 'software_id', 200),
    softwareVersion: optionalString(m.software_version, 'software_version', 100),
  };
}
