// The fixture tools, resources and prompts the official conformance suite
// (@modelcontextprotocol/conformance, server scenarios) calls by name. Only built in conformance
// mode (MCP_CONFORMANCE_MODE); it touches no organization data. Names and payloads follow the
// suite's reference "everything server" (examples/servers/typescript/everything-server.ts).
import { completable, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { registerMrtrFixtures, requestStateCodec } from './mrtr-fixtures.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** SEP-1613 / SEP-2106: a raw JSON Schema 2020-12 served with $schema, $defs ($anchor), composition, conditionals and additionalProperties intact. */
const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' }, contactMethod: { type: 'string', enum: ['phone', 'email'] }, phone: { type: 'string' }, email: { type: 'string' } },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};
/** A Standard Schema that accepts anything and advertises the given JSON Schema verbatim. */
const rawJsonSchema = (json: Record<string, unknown>) => ({
  '~standard': { version: 1, vendor: 'conformance-fixture', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => json, output: () => json } },
}) as const;
const raw2020 = rawJsonSchema(SCHEMA_2020_12);
/** SEP-2243: a string argument mirrored into the `Mcp-Param-Region` header, which the SDK validates against the body. */
const customHeaderSchema = rawJsonSchema({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] });

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

export function buildFixtureServer(): McpServer {
  const server = new McpServer(
    { name: 'agent-access-conformance-fixtures', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, logging: {}, completions: {} },
      cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'private' } },
      requestState: { verify: requestStateCodec.verify },
    },
  );

  server.registerTool('test_simple_text', { description: 'Tests simple text content response' }, async () => text('This is a simple text response for testing.'));
  server.registerTool('test_image_content', { description: 'Tests image content response' }, async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }));
  server.registerTool('test_audio_content', { description: 'Tests audio content response' }, async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }));
  server.registerTool('test_embedded_resource', { description: 'Tests embedded resource content response' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Tests response with multiple content types (text, image, resource)' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
    ],
  }));
  server.registerTool('test_tool_with_logging', { description: 'Tests tool that emits log messages during execution', inputSchema: z.object({}) }, async (_args, ctx) => {
    for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } });
    }
    return text('Tool with logging executed successfully');
  });
  server.registerTool('test_tool_with_progress', { description: 'Tests tool that reports progress notifications', inputSchema: z.object({}) }, async (_args, ctx) => {
    const progressToken = (ctx.mcpReq as { _meta?: { progressToken?: string | number } })._meta?.progressToken ?? 0;
    for (const progress of [0, 50, 100]) {
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` } });
    }
    return text(String(progressToken));
  });
  server.registerTool('test_error_handling', { description: 'Tests error response handling' }, async () => ({ isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] }));
  server.registerTool('json_schema_2020_12_tool', { description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)', inputSchema: raw2020 }, async (args: unknown) =>
    text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );

  server.registerTool('test_custom_headers', { description: 'Echoes an argument that is also sent as the Mcp-Param-Region header (SEP-2243)', inputSchema: customHeaderSchema }, async (args: unknown) =>
    text(`region: ${String((args as { region?: unknown }).region)}`),
  );

  server.registerResource('static-text', 'test://static-text', { title: 'Static Text Resource', description: 'A static text resource for testing', mimeType: 'text/plain' }, async () => ({
    contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { title: 'Static Binary Resource', description: 'A static binary resource (image) for testing', mimeType: 'image/png' }, async () => ({
    contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }],
  }));
  server.registerResource('template', new ResourceTemplate('test://template/{id}/data', { list: undefined }), { title: 'Resource Template', description: 'A resource template with parameter substitution', mimeType: 'application/json' }, async (uri, variables) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${String(variables.id)}` }) }],
  }));

  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt('test_prompt_with_arguments', { description: 'A prompt with required arguments', argsSchema: z.object({ arg1: completable(z.string().describe('First test argument'), (value) => ['paris', 'park', 'party'].filter((v) => v.startsWith(value))), arg2: z.string().describe('Second test argument') }) }, async ({ arg1, arg2 }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
  }));
  server.registerPrompt('test_prompt_with_embedded_resource', { description: 'A prompt that includes an embedded resource', argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }) }, async ({ resourceUri }) => ({
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }));
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt that includes image content' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  registerMrtrFixtures(server);
  return server;
}
