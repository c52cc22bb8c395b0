// /openapi.json: OpenAPI 3.0.3 description of the public agent API only (agent-access-service.md
// "Endpoints"; version 1.0.0 per "Versioning"). Built from configuration, so every URL is absolute
// and correct for this deployment.
import type { Config } from '../../config/load.ts';
import { mcpPaths } from './paths-mcp.ts';
import { oauthPaths } from './paths-oauth.ts';
import { responses, schemas, securitySchemes } from './schemas.ts';

export function openApiDocument(config: Config) {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Agent Access Service: OAuth 2.0 and MCP',
      version: '1.0.0',
      description:
        'The public agent-facing API: an MCP endpoint (Streamable HTTP, JSON-RPC 2.0) protected by an OAuth 2.0 authorization server with PKCE and dynamic client registration. One scope, `mcp`, grants read access bounded by the user\'s role and organization. The customer REST API and webhooks are separate and available on request.',
    },
    externalDocs: { description: 'Developers guide', url: `${config.siteUrl}/developers` },
    servers: [{ url: config.baseUrl }],
    tags: [
      { name: 'mcp', description: 'The MCP endpoint.' },
      { name: 'oauth', description: 'The authorization server.' },
      { name: 'discovery', description: 'Metadata documents.' },
    ],
    paths: tagged({ ...mcpPaths(config), ...oauthPaths(config) }),
    components: { schemas, securitySchemes: securitySchemes(config), responses },
  };
}

function tagged<T extends Record<string, Record<string, Record<string, unknown>>>>(paths: T): T {
  for (const [path, item] of Object.entries(paths)) {
    const tag = path === '/mcp' ? 'mcp' : path.startsWith('/.well-known/') ? 'discovery' : 'oauth';
    for (const operation of Object.values(item)) operation.tags = [tag];
  }
  return paths;
}

/** The documented (method, path) pairs, for tests and the site's own checks. */
export function documentedOperations(config: Config): Array<{ method: string; path: string }> {
  return Object.entries(openApiDocument(config).paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })),
  );
}
