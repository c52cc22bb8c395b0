// POST /mcp: the MCP endpoint. Before anything is answered: CORS, method, Origin/Host, body size,
// bearer token → principal, per-user and per-client rate limits. Then a plain tools/call is answered
// directly (direct-call.ts); everything else goes to the SDK's handler (both protocol eras,
// stateless). Everything the tools see comes from the verified token.
import { Hono } from 'hono';
import { createMcpHandler, type AuthInfo as SdkAuthInfo } from '@modelcontextprotocol/server';
import type { AppContext, AppEnv } from '../http/context.ts';
import { readBodyText } from '../http/body.ts';
import type { Config } from '../config/load.ts';
import type { RateRule } from '../limits/index.ts';
import type { TokenVerifier } from '../access/auth-info.ts';
import type { Principal } from '../access/principal.ts';
import { mcpCors } from './http/cors.ts';
import { originPolicy, refuseOriginOrHost } from './http/origin.ts';
import { authenticate, principalSource } from './http/bearer.ts';
import { buildServer, SERVER_INFO, serverInstructions, toolContext } from './server.ts';
import { directResponseBody, directToolCall } from './direct-call.ts';
import { toolsByName } from './tools/index.ts';
import { runTool } from './run-tool.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Per user: a busy agent makes a few calls a second at most. Per client: all its users together. */
export function mcpRateRules(config: Config): { user: RateRule; client: RateRule } {
  return {
    user: { name: 'mcp-user', points: config.mcp.userRequestsPerMinute, durationSeconds: 60 },
    client: { name: 'mcp-client', points: config.mcp.clientRequestsPerMinute, durationSeconds: 60 },
  };
}

const jsonError = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error, error_description: description }), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const tooLarge = () => jsonError(413, 'payload_too_large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);

export function mcpRoutes(ctx: AppContext, verifier: TokenVerifier): Hono<AppEnv> {
  const { config } = ctx;
  const policy = originPolicy(config);
  const instructions = serverInstructions(config.siteUrl);
  // The principal travels from the bearer check to the factory with the AuthInfo object the SDK passes through.
  const principals = new WeakMap<SdkAuthInfo, Principal>();
  const deps = { store: ctx.store, appUrl: config.appUrl, siteUrl: config.siteUrl, cursorKey: config.secrets.hash, logger: ctx.logger };
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const principal = authInfo ? principals.get(authInfo) : undefined;
      if (!principal) throw new Error('MCP request reached the server without an authenticated principal');
      return buildServer(deps, principal, instructions);
    },
    { legacy: 'stateless', maxRequestBodySize: MAX_BODY_BYTES, onerror: (error) => ctx.logger.warn({ err: error }, 'mcp request rejected') },
  );
  const principalsOf = principalSource(ctx.store, (error) => ctx.logger.warn({ err: error }, 'could not read the principal of a token in use again'));
  const rules = mcpRateRules(config);
  // The user's limit, then the client's within the user's organization, in one operation (one
  // Redis round trip a request). A client ID may be shared by every user of a hosted client (a
  // metadata document's URL): counted across organizations, one organization's traffic through it
  // would use up every other's.
  const limiter = ctx.limits.chain([rules.user, rules.client]);

  const app = new Hono<AppEnv>();
  app.use('/mcp', mcpCors());

  // Stateless serving: no SSE stream to resume and no session to delete.
  app.on(['GET', 'DELETE'], '/mcp', () => jsonError(405, 'method_not_allowed', 'This MCP endpoint is stateless: send JSON-RPC messages with POST.', { Allow: 'POST, OPTIONS' }));

  app.post('/mcp', async (c) => {
    const refusedOrigin = refuseOriginOrHost(policy, c.req.header('origin'), c.req.header('host'));
    if (refusedOrigin) return jsonError(403, 'forbidden_origin', refusedOrigin);

    const length = Number(c.req.header('content-length') ?? '0');
    if (Number.isFinite(length) && length > MAX_BODY_BYTES) return tooLarge();

    const result = await authenticate({ header: c.req.header('authorization'), verifier, principals: principalsOf, baseUrl: config.baseUrl });
    if (!('ok' in result)) {
      return jsonError(result.status, result.error, result.description, result.challenge ? { 'WWW-Authenticate': result.challenge } : {});
    }
    const { auth, principal } = result;

    const decision = await limiter.consume([`${principal.orgId}:${principal.userId}`, `${principal.orgId}:${auth.clientId}`]);
    if (!decision.allowed) {
      const seconds = Math.max(1, decision.retryAfterSeconds);
      return jsonError(429, 'rate_limited', `Too many requests; retry after ${seconds} s.`, { 'Retry-After': String(seconds) });
    }

    // The body is read once, under the limit; a plain tools/call is answered directly (direct-call.ts).
    const read = await readBodyText(c, MAX_BODY_BYTES).catch(() => undefined);
    if (read && 'tooLarge' in read) return tooLarge();
    const raw = c.req.raw;
    let parsedBody: unknown;
    try {
      parsedBody = read && read.text.length > 0 ? JSON.parse(read.text) : undefined;
    } catch {
      parsedBody = undefined;
    }
    const direct = parsedBody === undefined ? undefined : directToolCall(raw.headers, parsedBody, toolsByName);
    if (direct) {
      const result = await runTool(direct.tool, direct.args, toolContext(deps, principal), ctx.logger);
      return c.body(directResponseBody(direct, result, SERVER_INFO), 200, { 'Content-Type': 'application/json' });
    }

    const sdkAuth: SdkAuthInfo = { token: auth.token, clientId: auth.clientId, scopes: auth.scopes, expiresAt: auth.expiresAt, resource: new URL(auth.resource) };
    principals.set(sdkAuth, principal);
    // Everything else is the SDK's, with the body as it came (an unreadable one included).
    const forward = new Request(raw.url, { method: raw.method, headers: raw.headers, body: read ? read.text : null, signal: raw.signal });
    return handler.fetch(forward, parsedBody === undefined ? { authInfo: sdkAuth } : { authInfo: sdkAuth, parsedBody });
  });
  return app;
}
