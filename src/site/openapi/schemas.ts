// OpenAPI 3.0.3 components: one schema per field table of the spec (agent-access-service.md,
// "Resources and their fields"), the security schemes, and the shared error responses.
import type { Config } from '../../config/load.ts';

const uri = { type: 'string', format: 'uri' } as const;
const uriArray = { type: 'array', items: uri } as const;
const stringArray = { type: 'array', items: { type: 'string' } } as const;

export const schemas = {
  JsonRpcId: {
    description: 'Request identifier: a string or an integer. Omitted for notifications.',
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  },
  JsonRpcRequest: {
    type: 'object',
    description: 'A JSON-RPC 2.0 request or notification (the body of POST /mcp).',
    required: ['jsonrpc', 'method'],
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'], description: 'Exactly `2.0`.' },
      id: { $ref: '#/components/schemas/JsonRpcId' },
      method: { type: 'string', description: 'MCP method, for example `initialize`, `tools/list`, `tools/call`.', example: 'tools/call' },
      params: {
        type: 'object',
        additionalProperties: true,
        description: 'Free-form object. For `tools/call` it carries `name` (tool name) and `arguments` (object).',
      },
    },
  },
  JsonRpcError: {
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: { type: 'integer', description: 'JSON-RPC error code, e.g. -32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params.' },
      message: { type: 'string' },
      data: { description: 'Optional details.' },
    },
  },
  JsonRpcResponse: {
    type: 'object',
    description: 'A JSON-RPC 2.0 response: `result` on success or `error` on failure.',
    required: ['jsonrpc'],
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'], description: 'Exactly `2.0`.' },
      id: { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true, description: 'Echo of the request id; null when the request id could not be read.' },
      result: { type: 'object', additionalProperties: true, description: 'Present on success; free-form.' },
      error: { $ref: '#/components/schemas/JsonRpcError' },
    },
  },
  TokenRequest: {
    type: 'object',
    description: 'Form-encoded token request: code exchange (with `code_verifier`) or refresh.',
    required: ['grant_type'],
    properties: {
      grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
      code: { type: 'string', description: 'Authorization code. Required with `authorization_code`.' },
      redirect_uri: { ...uri, description: 'Must match the authorization request. Required with `authorization_code`.' },
      code_verifier: { type: 'string', description: 'PKCE code verifier. Required with `authorization_code`.' },
      refresh_token: { type: 'string', description: 'Refresh token. Required with `refresh_token`.' },
      client_id: { type: 'string', description: 'Client identifier. Required with `client_secret_post` (and for public clients).' },
      client_secret: { type: 'string', description: 'Client secret. Required with `client_secret_post`.' },
    },
  },
  TokenResponse: {
    type: 'object',
    required: ['access_token', 'token_type'],
    properties: {
      access_token: { type: 'string' },
      token_type: { type: 'string', description: 'The `Bearer` scheme.', example: 'Bearer' },
      expires_in: { type: 'integer', description: 'Access token lifetime in seconds.' },
      refresh_token: { type: 'string' },
      scope: { type: 'string', description: 'Space-separated granted scopes, for example `mcp`.' },
    },
  },
  OAuthError: {
    type: 'object',
    required: ['error'],
    properties: {
      error: { type: 'string', description: 'OAuth error code, for example `invalid_grant`, `invalid_client`.' },
      error_description: { type: 'string' },
    },
  },
  ClientRegistrationRequest: {
    type: 'object',
    description: 'RFC 7591 client metadata.',
    required: ['redirect_uris'],
    properties: {
      client_name: { type: 'string', description: 'Human-readable name shown on the consent screen.' },
      redirect_uris: { ...uriArray, minItems: 1 },
      grant_types: { type: 'array', items: { type: 'string', enum: ['authorization_code', 'refresh_token'] } },
      response_types: { type: 'array', items: { type: 'string', enum: ['code'] } },
      token_endpoint_auth_method: {
        type: 'string',
        description: '`client_secret_basic` or `client_secret_post`; `none` registers a public client (PKCE still required).',
        enum: ['client_secret_basic', 'client_secret_post', 'none'],
      },
      scope: { type: 'string', description: 'Space-separated, for example `mcp`.' },
    },
  },
  ClientRegistrationResponse: {
    type: 'object',
    required: ['client_id'],
    properties: {
      client_id: { type: 'string' },
      client_secret: { type: 'string', description: 'Returned once at registration only.' },
      client_name: { type: 'string' },
      redirect_uris: uriArray,
      grant_types: stringArray,
      response_types: stringArray,
      token_endpoint_auth_method: { type: 'string' },
      scope: { type: 'string' },
    },
  },
  RevocationRequest: {
    type: 'object',
    required: ['token'],
    properties: {
      token: { type: 'string', description: 'The access or refresh token to revoke.' },
      token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
      client_id: { type: 'string', description: 'With `client_secret_post`, or for public clients.' },
      client_secret: { type: 'string', description: 'With `client_secret_post`.' },
    },
  },
  AuthorizationServerMetadata: {
    type: 'object',
    description: 'RFC 8414 authorization server metadata.',
    required: ['issuer', 'authorization_endpoint', 'token_endpoint'],
    properties: {
      issuer: uri,
      authorization_endpoint: uri,
      token_endpoint: uri,
      registration_endpoint: uri,
      revocation_endpoint: uri,
      scopes_supported: stringArray,
      response_types_supported: stringArray,
      grant_types_supported: stringArray,
      code_challenge_methods_supported: stringArray,
      token_endpoint_auth_methods_supported: stringArray,
    },
  },
  ProtectedResourceMetadata: {
    type: 'object',
    description: 'RFC 9728 protected resource metadata.',
    required: ['resource', 'authorization_servers'],
    properties: {
      resource: { ...uri, description: 'The MCP endpoint address, `{base_url}/mcp`.' },
      authorization_servers: uriArray,
    },
  },
} as const;

export function securitySchemes(config: Config) {
  return {
    oauth2: {
      type: 'oauth2',
      description: 'Authorization code with PKCE (S256 only) and dynamic client registration at /oauth/register.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${config.baseUrl}/oauth/authorize`,
          tokenUrl: `${config.baseUrl}/oauth/token`,
          refreshUrl: `${config.baseUrl}/oauth/token`,
          scopes: {
            mcp: 'Read access to the MCP tool surface, bounded by the user\'s role and organization. No writes, administration or billing.',
          },
        },
      },
    },
    bearerAuth: { type: 'http', scheme: 'bearer', description: 'An access token with scope `mcp`, from the oauth2 flow.' },
    clientSecretBasic: { type: 'http', scheme: 'basic', description: '`client_secret_basic`: client_id and client_secret in HTTP Basic.' },
  };
}

const oauthErrorContent = (example: { error: string; error_description: string }) => ({
  'application/json': { schema: { $ref: '#/components/schemas/OAuthError' }, example },
});

export const responses = {
  OAuthBadRequest: {
    description: 'OAuth error.',
    content: oauthErrorContent({ error: 'invalid_request', error_description: 'The grant_type parameter is missing' }),
  },
  InvalidClient: {
    description: 'Client authentication failed. With HTTP Basic the response carries `WWW-Authenticate: Basic`.',
    headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Basic realm="…" when Basic was used.' } },
    content: oauthErrorContent({ error: 'invalid_client', error_description: 'Client authentication failed' }),
  },
  TooManyRequests: {
    description: 'Rate limited. Retry after the number of seconds in `Retry-After`.',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
    content: oauthErrorContent({ error: 'rate_limited', error_description: 'Too many requests; retry after 30 seconds' }),
  },
};
