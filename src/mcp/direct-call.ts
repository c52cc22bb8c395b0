// The hot path of POST /mcp: a well-formed `tools/call` of one of our tools is answered here,
// without building a per-request McpServer, and every other message (initialize, tools/list,
// server/discover, batches, anything malformed or inconsistent) goes to the SDK's handler, which
// stays the authority on the protocol. The era decision is the SDK's own (classifyInboundRequest);
// the checks the SDK makes after it are repeated here only as "is this the plain case?" — any
// doubt falls through to the SDK, which answers with its own errors. test/mcp/direct-call.test.ts
// sends the same requests both ways and requires identical JSON-RPC messages.
//
// Measured (in process, list_meetings on 100,000 meetings): the SDK's per-request server, its
// schema checks and its Response.json of a 40 KB result cost ~0.4 ms of a ~2 ms call.
import {
  classifyInboundRequest,
  isJsonContentType,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import type { ToolDefinition } from './define-tool.ts';
import { STRUCTURED_JSON } from './run-tool.ts';
import { utf8Body, utf8JsonTwice } from '../http/body.ts';

export type DirectCall = { era: 'modern' | 'legacy'; id: string | number; tool: ToolDefinition; args: unknown };

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const trimmed = (v: string | null) => (v === null ? undefined : v.trim());

/** Accept must name both JSON and SSE, literally, for 2025-era POSTs (the SDK answers 406 otherwise, wildcards included). */
function acceptsBoth(accept: string | null): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/json') && types.includes('text/event-stream');
}

/**
 * The modern revisions whose results directResponseBody writes. A later revision the SDK classifies
 * as modern (any date from 2026-07-28 on) is the SDK's to accept or refuse (it answers 400 today).
 */
const DIRECT_MODERN_REVISIONS: readonly string[] = ['2026-07-28'];

type Route = { kind: string; revision?: string | undefined };

/**
 * The SDK's era classification is a pure function of the headers and the message, and most of its
 * cost is zod checks of the whole message (~30 µs a call under load, most of it building the
 * issues of the checks that fail). A plain tools/call reaches it only with the keys below, and of
 * those it reads the headers, the method, the id's type and `_meta` (its schemas are loose about
 * everything else in params), so its answer is remembered by exactly those. Bounded: `_meta` is
 * the client's to vary.
 */
const routes = new Map<string, Route>();
const MAX_ROUTES = 256;
const PLAIN_MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PLAIN_PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);
const onlyKeys = (o: Plain, allowed: Set<string>) => Object.keys(o).every((k) => allowed.has(k));

function sdkRoute(body: Plain, versionHeader: string | undefined, methodHeader: string | undefined, nameHeader: string | undefined): Route {
  const route = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: versionHeader, mcpMethodHeader: methodHeader, mcpNameHeader: nameHeader, body } as Parameters<typeof classifyInboundRequest>[0]);
  return { kind: route.kind, revision: (route as { classification?: { revision?: string } }).classification?.revision };
}

function classify(body: Plain, params: Plain, versionHeader: string | undefined, methodHeader: string | undefined, nameHeader: string | undefined): Route {
  if (!onlyKeys(body, PLAIN_MESSAGE_KEYS) || !onlyKeys(params, PLAIN_PARAMS_KEYS)) return sdkRoute(body, versionHeader, methodHeader, nameHeader);
  const key = JSON.stringify([versionHeader ?? null, methodHeader ?? null, nameHeader ?? null, body.method, typeof body.id, params.name, params._meta ?? null]);
  let route = routes.get(key);
  if (!route) {
    route = sdkRoute(body, versionHeader, methodHeader, nameHeader);
    if (routes.size >= MAX_ROUTES) routes.delete(routes.keys().next().value as string);
    routes.set(key, route);
  }
  return route;
}

/**
 * The tools/call to answer directly, or undefined when the SDK must see the message. Only the
 * plain case qualifies: a JSON body holding one request with a string or integer id, a known
 * tool, arguments absent or an object, and headers that agree with the body.
 */
export function directToolCall(headers: Headers, body: unknown, tools: ReadonlyMap<string, ToolDefinition>): DirectCall | undefined {
  if (!isJsonContentType(headers.get('content-type'))) return undefined;
  if (!isPlain(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  const params = body.params;
  if (!isPlain(params) || typeof params.name !== 'string') return undefined;
  const tool = tools.get(params.name);
  if (!tool) return undefined;
  if (params.arguments !== undefined && !isPlain(params.arguments)) return undefined;
  if (params._meta !== undefined && !isPlain(params._meta)) return undefined;
  if (params._meta && 'progressToken' in params._meta) return undefined;

  const versionHeader = trimmed(headers.get('mcp-protocol-version'));
  const methodHeader = trimmed(headers.get('mcp-method'));
  const nameHeader = trimmed(headers.get('mcp-name'));
  const route = classify(body, params, versionHeader, methodHeader, nameHeader);
  if (route.kind === 'modern') {
    const revision = route.revision;
    const meta = params._meta as Plain | undefined;
    if (!revision || !DIRECT_MODERN_REVISIONS.includes(revision) || versionHeader !== revision || methodHeader !== 'tools/call' || nameHeader !== params.name) return undefined;
    if (!meta || !isPlain(meta['io.modelcontextprotocol/clientCapabilities'])) return undefined;
    return { era: 'modern', id, tool, args: params.arguments };
  }
  if (route.kind === 'legacy') {
    if (versionHeader !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(versionHeader)) return undefined;
    if (methodHeader !== undefined || nameHeader !== undefined) return undefined;
    if (!acceptsBoth(headers.get('accept'))) return undefined;
    return { era: 'legacy', id, tool, args: params.arguments };
  }
  return undefined;
}

/**
 * The JSON-RPC response (sent with status 200, application/json) the SDK would send for this result, as UTF-8: 2026-07-28 results carry
 * `resultType` and the server's identity in `_meta`; 2025-era results are the plain result, sent
 * as JSON (which 2025-era Streamable HTTP allows in place of a one-event SSE stream).
 */
export function directResponseBody(call: DirectCall, result: CallToolResult, serverInfo: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  const meta = { ...(result._meta ?? {}), [SERVER_INFO_META_KEY]: serverInfo };
  const structuredJson = (result as { [STRUCTURED_JSON]?: string })[STRUCTURED_JSON];
  if (structuredJson !== undefined && isJsonTextResult(result, structuredJson)) {
    // The same bytes JSON.stringify would write, with the structured content's JSON reused for
    // both the text block and structuredContent (utf8JsonTwice).
    const tail = call.era === 'modern' ? `,"resultType":"complete","_meta":${JSON.stringify(meta)}` : '';
    return utf8JsonTwice('{"result":{"content":[{"type":"text","text":', structuredJson, '}],"structuredContent":', `${tail}},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`);
  }
  const payload = call.era === 'modern' ? { ...result, resultType: 'complete', _meta: meta } : result;
  return utf8Body(JSON.stringify({ result: payload, jsonrpc: '2.0', id: call.id }));
}

/** A result exactly as run-tool.ts jsonResult builds it: one text block holding the JSON, then structuredContent. */
function isJsonTextResult(result: CallToolResult, json: string): boolean {
  const keys = Object.keys(result);
  if (keys.length !== 2 || keys[0] !== 'content' || keys[1] !== 'structuredContent' || result.content.length !== 1) return false;
  const block = result.content[0] as Record<string, unknown>;
  const blockKeys = Object.keys(block);
  return blockKeys.length === 2 && blockKeys[0] === 'type' && blockKeys[1] === 'text' && block.type === 'text' && block.text === json;
}
