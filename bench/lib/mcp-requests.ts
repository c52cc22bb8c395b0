// The two eras of an MCP tools/call request, byte for byte as the official client SDK
// (@modelcontextprotocol/client 2.4) sends them — captured from its traffic:
// - 2026-07-28: the per-request `_meta` envelope (protocolVersion, clientInfo, clientCapabilities)
//   and the SEP-2243 headers MCP-Protocol-Version, Mcp-Method and Mcp-Name (= tool name).
// - 2025-era (stateless serving): a plain JSON-RPC tools/call with MCP-Protocol-Version 2025-11-25,
//   as a client sends it after its one initialize handshake.
import { rpcMessageIn } from '../../test/support/mcp-message.ts';

export type Era = '2025-11-25' | '2026-07-28';
export const ERAS: Era[] = ['2025-11-25', '2026-07-28'];

export type HttpRequest = { method: 'POST'; path: string; headers: Record<string, string>; body: string };

const CLIENT_INFO = { name: 'agent-access-bench', version: '1.0.0' };

export function toolCall(era: Era, tool: string, args: Record<string, unknown>, options: { bearer?: string; path?: string; id?: number } = {}): HttpRequest {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': era,
  };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const params: Record<string, unknown> = { name: tool, arguments: args };
  if (era === '2026-07-28') {
    headers['mcp-method'] = 'tools/call';
    headers['mcp-name'] = tool;
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': era,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }
  return { method: 'POST', path: options.path ?? '/mcp', headers, body: JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method: 'tools/call', params }) };
}

export type JsonRpcReply = { result?: { content?: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean }; error?: { code: number; message: string } };

/** The JSON-RPC message of a response, whether it came as JSON or as an SSE stream (the shared test reader). */
export const parseReply = (contentType: string | null, text: string): JsonRpcReply => rpcMessageIn(text, contentType) as JsonRpcReply;

/** Sends one request and returns the status and parsed reply (for probes and setup, not load). */
export async function send(baseUrl: string, req: HttpRequest): Promise<{ status: number; reply: JsonRpcReply | undefined; text: string }> {
  const res = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: req.body, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let reply: JsonRpcReply | undefined;
  try {
    reply = parseReply(res.headers.get('content-type'), text);
  } catch {
    reply = undefined;
  }
  return { status: res.status, reply, text };
}
