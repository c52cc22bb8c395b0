// The registration response (RFC 7591 §3.2.1) and the RFC 7592 read response share this view.
import type { Config } from '../../config/load.ts';
import type { OAuthClient } from '../../store/oauth-clients.ts';

export function registrationClientUri(config: Config, clientId: string): string {
  return `${config.baseUrl}/oauth/register/${encodeURIComponent(clientId)}`;
}

export function clientView(config: Config, client: OAuthClient): Record<string, unknown> {
  const view: Record<string, unknown> = {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    scope: client.scope,
    registration_client_uri: registrationClientUri(config, client.clientId),
  };
  const optional: [string, string | null][] = [
    ['client_name', client.clientName],
    ['application_type', client.applicationType],
    ['client_uri', client.clientUri],
    ['logo_uri', client.logoUri],
    ['policy_uri', client.policyUri],
    ['tos_uri', client.tosUri],
    ['software_id', client.softwareId],
    ['software_version', client.softwareVersion],
  ];
  for (const [name, value] of optional) if (value !== null) view[name] = value;
  // RFC 7591 §3.2.1: REQUIRED when a secret was issued; 0 = it does not expire.
  if (client.secretHash) view.client_secret_expires_at = 0;
  return view;
}
