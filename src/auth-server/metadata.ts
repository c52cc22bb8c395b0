// Discovery: RFC 8414 authorization server metadata and RFC 9728 protected resource metadata.
// The issuer string is config.baseUrl, used verbatim everywhere (P6, AS-70, AS-71).
import { Hono } from 'hono';
import type { Config } from '../config/load.ts';
import type { AppContext, AppEnv } from '../http/context.ts';
import { openCors } from './http/headers.ts';
import { AUTH_METHODS } from './register/client-metadata.ts';
import { canonicalResource, issuerOf, SUPPORTED_SCOPES } from './resource.ts';

export function authorizationServerMetadata(config: Config) {
  const issuer = issuerOf(config);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}

export function protectedResourceMetadata(config: Config) {
  return {
    resource: canonicalResource(config),
    authorization_servers: [issuerOf(config)],
    // AS-71: offline_access belongs to the AS, not the resource.
    scopes_supported: ['mcp'],
    bearer_methods_supported: ['header'],
  };
}

export function metadataRoutes(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const as = authorizationServerMetadata(ctx.config);
  const prm = protectedResourceMetadata(ctx.config);
  app.use('/.well-known/oauth-authorization-server', openCors());
  app.use('/.well-known/oauth-protected-resource', openCors());
  app.use('/.well-known/oauth-protected-resource/*', openCors());
  // AS-72: cacheable JSON.
  app.get('/.well-known/oauth-authorization-server', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(as);
  });
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    app.get(path, (c) => {
      c.header('Cache-Control', 'public, max-age=3600');
      return c.json(prm);
    });
  }
  return app;
}
