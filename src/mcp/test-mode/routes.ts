// POST /conformance/mcp: the conformance suite's fixture server (fixtures.ts), mounted only when
// MCP_CONFORMANCE_MODE is on (refused with APP_ENV=production by the config checks). The suite sends
// no Authorization header, so instead of a bearer token this route admits only loopback peers (the
// socket's address, never X-Forwarded-For), and keeps the same Origin/Host (DNS-rebinding) rule as /mcp.
import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { originPolicy, refuseOriginOrHost } from '../http/origin.ts';
import { MAX_BODY_BYTES } from '../index.ts';
import { buildFixtureServer } from './fixtures.ts';
import { jsonError } from '../../http/errors.ts';

export const CONFORMANCE_PATH = '/conformance/mcp';
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function conformanceRoutes(ctx: AppContext): Hono<AppEnv> {
  const policy = originPolicy(ctx.config);
  const handler = createMcpHandler(() => buildFixtureServer(), { legacy: 'stateless', maxRequestBodySize: MAX_BODY_BYTES });
  const app = new Hono<AppEnv>();
  app.all(CONFORMANCE_PATH, async (c) => {
    let peer = '';
    try {
      peer = getConnInfo(c).remote.address ?? '';
    } catch {
      peer = ''; // app.request() without a socket: not a loopback peer
    }
    if (!LOOPBACK.test(peer)) return jsonError(c, 403, 'forbidden', 'The conformance endpoint answers loopback clients only.');
    const refusedOrigin = refuseOriginOrHost(policy, c.req.header('origin'), c.req.header('host'));
    if (refusedOrigin) return jsonError(c, 403, 'forbidden_origin', refusedOrigin);
    return handler.fetch(c.req.raw);
  });
  return app;
}
