// The MCP server behind POST /mcp for everything but a plain tools/call (direct-call.ts answers
// those without it). Tool schemas are converted to JSON Schema once, at module load; the
// per-request factory only builds a server bound to the caller's principal (the SDK creates one
// per request by design). Arguments are validated by our own boundary (run-tool.ts)
// so a bad argument is an actionable tool error, not a protocol error.
import { McpServer, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Logger } from '../log.ts';
import type { Store } from '../store/database.ts';
import type { Principal } from '../access/principal.ts';
import { tools } from './tools/index.ts';
import { runTool } from './run-tool.ts';
import type { ToolContext } from './define-tool.ts';

export const SERVER_INFO = { name: 'agent-access', title: 'Agent Access Service', version: '0.1.0' } as const;

export function serverInstructions(siteUrl: string): string {
  return [
    'Read-only access to one sales organization\'s meetings, deals, coaching and qualification results, reports and enablement documents, limited to what the signed-in user may see.',
    'Start with get_teams: "me" says who you act for (role, teams). Then:',
    '- Meetings: list_meetings (time window, filters) → get_meeting (notes, participants, transcript size) → get_meeting_transcript (page with next_cursor).',
    '- Deals: get_deals → get_deal (meetings, stakeholders) → get_qualification_results (MEDDPICC/BANT by dimension).',
    '- Agents: list_agents gives template_id; agent_results reads meeting-scope results (scorecards); deal-scope qualification agents are read with get_qualification_results.',
    '- Reports: list_reports → read_report (table of contents first when large).',
    '- Documents: ask_documents answers from playbooks and battlecards with numbered citations, or says "not found".',
    'Lists are paginated: pass next_cursor back as cursor with the same arguments. Results carry scope (your visibility), so an empty list means "nothing visible", not an error. Errors are tool results with a code (not_found, forbidden, no_transcript, invalid_argument, rate_limited, unavailable) and a hint.',
    `Server card and tool reference: ${siteUrl}/.well-known/mcp.json`,
  ].join('\n');
}

/** A Standard Schema that accepts anything and reports a precomputed JSON Schema. */
function advertised(json: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'agent-access',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    },
  } as StandardSchemaWithJSON;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** Built once: the wire shape of every tool. */
const REGISTRATIONS = tools.map((tool) => ({
  tool,
  config: {
    title: tool.title,
    description: tool.description,
    inputSchema: advertised(jsonSchema(tool.inputSchema, 'input')),
    outputSchema: advertised(jsonSchema(tool.outputSchema, 'output')),
    annotations: tool.annotations,
  },
}));

export type ServerDeps = { store: Store; appUrl: string; siteUrl: string; cursorKey: string; logger: Logger };

/** What a tool call sees: the server's dependencies, the caller's principal, and "now". */
export function toolContext(deps: ServerDeps, principal: Principal): ToolContext {
  return { store: deps.store, principal, appUrl: deps.appUrl, cursorKey: deps.cursorKey, now: Date.now() };
}

export function buildServer(deps: ServerDeps, principal: Principal, instructions: string): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions,
    capabilities: { tools: { listChanged: false } },
    cacheHints: { 'tools/list': { ttlMs: 300_000, cacheScope: 'private' } },
  });
  for (const { tool, config } of REGISTRATIONS) {
    server.registerTool(tool.name, config, (args: unknown) => runTool(tool, args, toolContext(deps, principal), deps.logger));
  }
  return server;
}
