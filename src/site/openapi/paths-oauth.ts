// OpenAPI path items for the OAuth endpoints and both metadata documents
// (agent-access-service.md "Endpoints"; RFC 6749, 7591, 7009, 8414, 9728).
import type { Config } from '../../config/load.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const noStore = { 'Cache-Control': { schema: { type: 'string', example: 'no-store' }, description: 'Token responses are never cached.' } };

export function oauthPaths(config: Config) {
  const base = config.baseUrl;
  const query = (name: string, required: boolean, description: string, schema: Record<string, unknown> = { type: 'string' }) =>
    ({ name, in: 'query', required, description, schema });
  return {
    '/oauth/authorize': {
      get: {
        operationId: 'authorize',
        summary: 'Begin the authorization code flow',
        description: 'Sends the user to sign in (Google, Microsoft or organization SSO) and approve the client, then redirects to `redirect_uri` with `code` and `state` (and `iss`), or `error`. PKCE with S256 is required. An RFC 8707 `resource` parameter equal to the MCP URL is accepted.',
        security: [],
        parameters: [
          query('response_type', true, 'Must be `code`.', { type: 'string', enum: ['code'] }),
          query('client_id', true, 'From dynamic client registration.'),
          query('redirect_uri', true, 'Must be a registered redirect URI.', { type: 'string', format: 'uri' }),
          query('scope', false, 'Space-separated scopes; available scope is `mcp`.', { type: 'string', example: 'mcp' }),
          query('state', false, 'Opaque; echoed back on redirect.'),
          query('code_challenge', true, 'PKCE challenge: base64url SHA-256 of the verifier (43 characters).'),
          query('code_challenge_method', true, 'Only `S256`.', { type: 'string', enum: ['S256'] }),
        ],
        responses: {
          '302': {
            description: 'Redirect to the sign-in flow; after consent, to `redirect_uri` with `code` and `state`, or with `error`.',
            headers: { Location: { schema: { type: 'string', format: 'uri', example: 'https://client.example/callback?code=…&state=xyz&iss=' + encodeURIComponent(base) } } },
          },
          '400': { description: 'Invalid request (unknown client_id, bad redirect_uri, missing PKCE), shown as a page: never redirected.', content: { 'text/html': { schema: { type: 'string' } } } },
        },
      },
    },
    '/oauth/token': {
      post: {
        operationId: 'token',
        summary: 'Exchange a code or refresh a token',
        description: 'Code exchange (`grant_type=authorization_code` with `code_verifier`) and refresh (`grant_type=refresh_token`; refresh tokens rotate). Client authentication: `client_secret_basic` or `client_secret_post`; public clients send `client_id` only.',
        security: [{ clientSecretBasic: [] }, {}],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: ref('TokenRequest'),
              examples: {
                code: { summary: 'Code exchange', value: { grant_type: 'authorization_code', code: 'aac_example', redirect_uri: 'http://127.0.0.1:33418/callback', code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', client_id: 'client_example' } },
                refresh: { summary: 'Refresh', value: { grant_type: 'refresh_token', refresh_token: 'art_example', client_id: 'client_example' } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Tokens.',
            headers: noStore,
            content: { 'application/json': { schema: ref('TokenResponse'), example: { access_token: 'aat_example', token_type: 'Bearer', expires_in: 3600, refresh_token: 'art_example', scope: 'mcp' } } },
          },
          '400': {
            description: 'OAuth error, e.g. `invalid_grant` (a dead code or refresh token: authorize again), `invalid_request`, `unsupported_grant_type`.',
            headers: noStore,
            content: { 'application/json': { schema: ref('OAuthError'), example: { error: 'invalid_grant', error_description: 'The authorization code is invalid or expired' } } },
          },
          '401': { $ref: '#/components/responses/InvalidClient' },
          '429': { $ref: '#/components/responses/TooManyRequests' },
        },
      },
    },
    '/oauth/register': {
      post: {
        operationId: 'registerClient',
        summary: 'Register a client (RFC 7591)',
        description: 'Dynamic client registration; no human key issuance. A `client_secret`, when issued, is returned once: store it.',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('ClientRegistrationRequest'),
              example: { client_name: 'Example agent', redirect_uris: ['http://127.0.0.1:33418/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', scope: 'mcp' },
            },
          },
        },
        responses: {
          '201': {
            description: 'The registered client.',
            headers: noStore,
            content: {
              'application/json': {
                schema: ref('ClientRegistrationResponse'),
                example: { client_id: 'client_example', client_secret: 'acs_example', client_name: 'Example agent', redirect_uris: ['http://127.0.0.1:33418/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', scope: 'mcp' },
              },
            },
          },
          '400': {
            description: 'Invalid client metadata (`invalid_client_metadata`, `invalid_redirect_uri`).',
            content: { 'application/json': { schema: ref('OAuthError'), example: { error: 'invalid_redirect_uri', error_description: 'redirect_uris must hold at least one https or loopback URI' } } },
          },
          '429': { $ref: '#/components/responses/TooManyRequests' },
        },
      },
    },
    '/oauth/revoke': {
      post: {
        operationId: 'revokeToken',
        summary: 'Revoke a token (RFC 7009)',
        description: 'Revokes an access or refresh token. Revoking a refresh token ends the whole grant. An unknown or already invalid token is not an error (200).',
        security: [{ clientSecretBasic: [] }, {}],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: ref('RevocationRequest'), example: { token: 'art_example', token_type_hint: 'refresh_token', client_id: 'client_example' } } },
        },
        responses: {
          '200': { description: 'The token is revoked, or it was already invalid. Empty body.' },
          '400': { $ref: '#/components/responses/OAuthBadRequest' },
          '401': { $ref: '#/components/responses/InvalidClient' },
        },
      },
    },
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'getAuthorizationServerMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        description: 'Endpoints, scopes, grant types and PKCE methods. The same path on the site host redirects here.',
        security: [],
        responses: {
          '200': {
            description: 'Metadata.',
            content: {
              'application/json': {
                schema: ref('AuthorizationServerMetadata'),
                example: {
                  issuer: base,
                  authorization_endpoint: `${base}/oauth/authorize`,
                  token_endpoint: `${base}/oauth/token`,
                  registration_endpoint: `${base}/oauth/register`,
                  revocation_endpoint: `${base}/oauth/revoke`,
                  scopes_supported: ['mcp', 'offline_access'],
                  response_types_supported: ['code'],
                  grant_types_supported: ['authorization_code', 'refresh_token'],
                  code_challenge_methods_supported: ['S256'],
                  token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
                },
              },
            },
          },
        },
      },
    },
    '/.well-known/oauth-protected-resource': {
      get: {
        operationId: 'getProtectedResourceMetadata',
        summary: 'Protected resource metadata (RFC 9728)',
        description: 'Names the MCP endpoint and its authorization server. Also served at `/.well-known/oauth-protected-resource/mcp`.',
        security: [],
        responses: {
          '200': {
            description: 'Metadata.',
            content: {
              'application/json': {
                schema: ref('ProtectedResourceMetadata'),
                example: { resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ['mcp'], bearer_methods_supported: ['header'] },
              },
            },
          },
        },
      },
    },
  };
}
