// Anchor (c) of W1: anchor (b) with the one change mcp-protocol.md's performance notes ask for —
// the zod schema (and the description and handler) created once at module load, so the
// per-request factory only constructs the server and binds them. This is the SDK's floor.
import { serve } from '@hono/node-server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const inputSchema = z.object({ limit: z.number().int().min(1).max(100).optional() });
const config = { description: 'Echoes its arguments.', inputSchema };
const echo = async (args: z.output<typeof inputSchema>) => ({ content: [{ type: 'text' as const, text: JSON.stringify(args) }] });

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool('list_meetings', config, echo);
  return server;
});

serve({ fetch: (request) => (new URL(request.url).pathname === '/healthz' ? new Response('ok') : handler.fetch(request)), port: Number(process.env.PORT), hostname: '127.0.0.1' });
