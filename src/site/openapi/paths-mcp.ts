// OpenAPI path item for POST /mcp (agent-access-service.md "POST /mcp"; MCP Streamable HTTP).
import type { Config } from '../../config/load.ts';
import { MAX_BODY_BYTES } from '../../mcp/index.ts';

const jsonRpc = (schema: string) => ({ $ref: `#/components/schemas/${schema}` });

export function mcpPaths(config: Config) {
  return {
    '/mcp': {
      post: {
        operationId: 'callMcp',
        summary: 'Send an MCP JSON-RPC 2.0 message',
        description: [
          'The MCP endpoint (Streamable HTTP, stateless). Send one JSON-RPC 2.0 request or notification per POST:',
          '`initialize`, `tools/list`, `tools/call` (params `{name, arguments}`) and the other MCP methods.',
          'Twelve read-only tools are offered; results are bounded by the authorizing user\'s role and organization.',
          `Server manifest: \`/.well-known/mcp.json\` on the site (${config.siteUrl}/.well-known/mcp.json).`,
          'Without a valid token the answer is 401 with `WWW-Authenticate` pointing to `/.well-known/oauth-protected-resource`.',
        ].join(' '),
        security: [{ oauth2: ['mcp'] }, { bearerAuth: [] }],
        parameters: [
          { name: 'MCP-Protocol-Version', in: 'header', required: false, schema: { type: 'string', example: '2025-11-25' }, description: 'Negotiated MCP protocol version; absent means 2025-03-26.' },
          { name: 'Mcp-Method', in: 'header', required: false, schema: { type: 'string', example: 'tools/call' }, description: 'The JSON-RPC method (required by the 2026-07-28 revision).' },
          { name: 'Mcp-Name', in: 'header', required: false, schema: { type: 'string', example: 'list_meetings' }, description: 'The tool name for `tools/call` (2026-07-28 revision).' },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: jsonRpc('JsonRpcRequest'),
              examples: {
                initialize: {
                  summary: 'Start a 2025-era session',
                  value: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'example-client', version: '1.0.0' } } },
                },
                toolsList: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} } },
                toolsCall: {
                  summary: 'Call a tool',
                  value: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_meetings', arguments: { range: 'last_7_days', limit: 10 } } },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'A JSON-RPC response. Failures inside the exchange are a JSON-RPC `error`; tool failures are results with `isError: true`.',
            content: {
              'application/json': {
                schema: jsonRpc('JsonRpcResponse'),
                examples: {
                  result: { summary: 'Success', value: { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'get_teams', description: 'Who am I and which teams can I see.' }] } } },
                  error: { summary: 'JSON-RPC error', value: { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Unknown tool: list_meeting' } } },
                },
              },
              'text/event-stream': { schema: { type: 'string', description: 'The same JSON-RPC response as one server-sent event, when the client accepts only a stream.' } },
            },
          },
          '202': { description: 'A notification (no `id`) was accepted; no body.' },
          '400': {
            description: 'Unparsable JSON, an invalid JSON-RPC object, or an unsupported protocol version.',
            content: { 'application/json': { schema: jsonRpc('JsonRpcResponse'), example: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } } } },
          },
          '401': {
            description: 'Missing or invalid access token.',
            headers: {
              'WWW-Authenticate': {
                description: 'Points to the protected resource metadata.',
                schema: { type: 'string', example: `Bearer resource_metadata="${config.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="mcp"` },
              },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' }, example: { error: 'invalid_token', error_description: 'Missing or invalid access token' } } },
          },
          '403': {
            description: 'The token lacks scope `mcp` (`insufficient_scope`), the Origin is not allowed, or the user or license is inactive.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' }, example: { error: 'insufficient_scope', error_description: 'This endpoint needs scope mcp' } } },
          },
          '413': {
            description: `The request body is over ${MAX_BODY_BYTES} bytes.`,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' }, example: { error: 'payload_too_large', error_description: `Request bodies are limited to ${MAX_BODY_BYTES} bytes.` } } },
          },
          '429': { $ref: '#/components/responses/TooManyRequests' },
        },
        externalDocs: { description: 'Developers guide', url: `${config.siteUrl}/developers` },
      },
    },
  };
}
