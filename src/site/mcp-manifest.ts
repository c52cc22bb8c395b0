// Discovery documents for MCP clients and registries:
// - /.well-known/mcp.json: the MCP registry server.json (schema 2025-12-11);
// - {BASE_URL}/mcp/server-card: the draft SEP-2127 server card;
// - /.well-known/ai-catalog.json: the AI Catalog entry that points to the card.
import type { Config } from '../config/load.ts';
import { SERVICE_VERSION } from './version.ts';

export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

const TITLE = 'Agent Access Service';
// ≤ 100 characters (server.json `description` maxLength).
const DESCRIPTION = 'Read-only sales coaching data for AI agents: meetings, transcripts, deals, reports and documents.';
const SERVER_SUFFIX = 'agent-access';

/** Reverse-DNS namespace from the site's host: agents.example.com → com.example.agents. */
export function serverName(config: Config): string {
  const host = new URL(config.siteUrl).hostname.replace(/^\[|\]$/g, '').replace(/[^a-zA-Z0-9.-]/g, '-');
  return `${host.split('.').reverse().join('.')}/${SERVER_SUFFIX}`;
}

export function serverJson(config: Config) {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: serverName(config),
    title: TITLE,
    description: DESCRIPTION,
    version: SERVICE_VERSION,
    websiteUrl: `${config.siteUrl}/developers`,
    remotes: [{ type: 'streamable-http', url: `${config.baseUrl}/mcp` }],
  };
}

export const SUPPORTED_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

export function serverCard(config: Config) {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverName(config),
    title: TITLE,
    description: DESCRIPTION,
    version: SERVICE_VERSION,
    websiteUrl: `${config.siteUrl}/developers`,
    remotes: [{ type: 'streamable-http', url: `${config.baseUrl}/mcp`, supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS }],
  };
}

/** AI Catalog / MCP Catalog entry (identifier `urn:air:{publisher domain}:{name suffix}`). */
export function aiCatalog(config: Config) {
  return {
    specVersion: 'draft',
    entries: [
      {
        identifier: `urn:air:${new URL(config.siteUrl).hostname}:${SERVER_SUFFIX}`,
        displayName: TITLE,
        type: SERVER_CARD_MEDIA_TYPE,
        url: `${config.baseUrl}/mcp/server-card`,
      },
    ],
  };
}
