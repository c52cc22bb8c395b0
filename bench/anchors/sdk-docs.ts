// Anchor (b) of W1: an MCP server written the way the SDK's documentation shows it
// (docs/serving/web-standard.md "Mount the handler"): createMcpHandler with a factory that builds
// a fresh McpServer per request and declares the tool's zod schema inside the factory. One echo
// tool, registered under the name W1 calls (`list_meetings`) so every contender gets byte-identical
// requests. Mounted with @hono/node-server, the same Node adapter the service uses.
import { serve } from '@hono/node-server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool(
    'list_meetings',
    {
      description: 'Echoes its arguments.',
      inputSchema: z.object({ limit: z.number().int().min(1).max(100).optional() }),
    },
    async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  );
  return server;
});

serve({ fetch: (request) => (new URL(request.url).pathname === '/healthz' ? new Response('ok') : handler.fetch(request)), port: Number(process.env.PORT), hostname: '127.0.0.1' });
