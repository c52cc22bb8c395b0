// Builds the running service from a config: store (migrated), limits, app, HTTP server, and a
// graceful shutdown that stops accepting, lets in-flight requests finish, then closes the store.
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { inArrivalOrder } from './http/arrival-order.ts';
import type { Config } from './config/load.ts';
import { createApp } from './http/app.ts';
import type { AppContext } from './http/context.ts';
import { createLimits } from './limits/index.ts';
import type { Logger } from './log.ts';
import { migrateToLatest, openStore, type Store } from './store/database.ts';
import { startOAuthJobs } from './auth-server/index.ts';

export type RunningService = {
  ctx: AppContext;
  server: Server;
  url: string;
  stop(reason?: string): Promise<void>;
};

/**
 * Applies the pending migrations, saying which before and how long after: the service listens only
 * once they are applied, and on a large database one can take minutes (README "Upgrading"), so an
 * operator watching the logs learns why it is not up yet. A database already up to date logs nothing.
 */
async function migrateLogged(store: Store, logger: Logger): Promise<void> {
  let started: number | undefined;
  const result = await migrateToLatest(store, (pending) => {
    started = performance.now();
    logger.info({ pending: pending.length, first: pending[0], last: pending.at(-1) }, 'applying database migrations before listening (on a large database this can take minutes: README "Upgrading")');
  });
  if (started === undefined) return;
  // What this process applied: another starting at once may have applied some first.
  const applied = result.results?.filter((r) => r.status === 'Success').length ?? 0;
  logger.info({ applied, seconds: Math.round((performance.now() - started) / 100) / 10 }, 'database migrations applied');
}

/**
 * An MCP message (POST /mcp, with a query or not), tool calls among them: started in arrival order
 * (http/arrival-order.ts). Anything else starts as Node reads it. A target the router also takes
 * for /mcp (absolute form, dot segments, percent-encoded letters, a fragment) waits too, or it
 * would pass the line: its path is read as @hono/node-server and Hono read it.
 */
export function isMcpPost(req: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  const { method, url } = req;
  if (method !== 'POST' || url === undefined) return false;
  if (url === '/mcp' || url.startsWith('/mcp?')) return true;
  // Any other spelling needs one of these (or the absolute form): the token endpoint's path is never parsed.
  if (url.startsWith('/') && !/[%.#\\]/.test(url)) return false;
  try {
    return decodeURI(new URL(url.startsWith('/') ? `http://localhost${url}` : url).pathname) === '/mcp';
  } catch {
    return false; // the router refuses it too
  }
}

export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const store = openStore(config.database, logger);
  try {
    await migrateLogged(store, logger);
  } catch (error) {
    await store.close();
    throw error;
  }
  const limits = createLimits(config.redisUrl, logger);
  const ctx: AppContext = { config, store, limits, logger };
  const app = await createApp(ctx);
  // Abandoned clients, expired codes, pending requests, grace responses, sessions and sign-in attempts; the timer is unref'd.
  const stopOAuthJobs = startOAuthJobs(ctx);

  // A port already taken (EADDRINUSE) or not ours to bind (EACCES) fails the start; what was opened
  // for it is closed, so a caller that starts again (on another port) leaks nothing.
  const server = await new Promise<Server>((resolve, reject) => {
    // What @hono/node-server's serve() builds, with MCP messages started in arrival order.
    const s = createServer(inArrivalOrder(getRequestListener(app.fetch, { hostname: config.host }), isMcpPost));
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  }).catch(async (error: unknown) => {
    void stopOAuthJobs();
    await Promise.allSettled([store.close(), limits.close()]);
    throw error;
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop') => {
    stopping ??= (async () => {
      logger.info({ reason }, 'shutting down: no new connections, finishing in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      void stopOAuthJobs();
      server.closeIdleConnections();
      const force = setTimeout(() => {
        logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timeout: closing remaining connections');
        server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      force.unref();
      await closed;
      clearTimeout(force);
      await Promise.allSettled([store.close(), limits.close()]);
      logger.info('stopped');
    })();
    return stopping;
  };

  return { ctx, server, url, stop };
}
