// `agent-access serve`: run the service until SIGTERM or SIGINT.
import module from 'node:module';
import { loadConfig } from '../config/load.ts';
import { createLogger } from '../log.ts';
import { startService } from '../server.ts';
import { demoAccountsText, seedOnFirstStart } from './seed.ts';

export async function serveCommand(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(config.log);
  if (config.database.kind === 'sqlite' && config.env === 'production') {
    logger.warn('running production on SQLite: one instance only; use PostgreSQL to run several');
  }
  const service = await startService(config, logger).catch((error: unknown) => {
    throw listenHint(error, config.port);
  });
  // The demo dataset loads in the background on a first development start; a stop signal aborts it.
  const seeding = new AbortController();
  const seeded = seedOnFirstStart(service.ctx, seeding.signal).catch((error: unknown) => {
    logger.warn({ err: error }, 'demo dataset not (fully) loaded');
    return false;
  });
  logger.info(
    { listening: service.url, baseUrl: config.baseUrl, database: config.database.kind, limits: service.ctx.limits.kind },
    'agent-access is ready',
  );
  process.stdout.write(
    [
      '',
      `  Agent Access Service is running (${config.env}, ${config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL'}).`,
      `  Open              ${config.siteUrl}`,
      `  MCP endpoint      ${config.baseUrl}/mcp   (point your MCP client here)`,
      `  OAuth metadata    ${config.baseUrl}/.well-known/oauth-authorization-server`,
      ...(config.env === 'development' ? [demoAccountsText()] : []),
      `  Press Ctrl-C to stop.`,
      '',
    ].join('\n') + '\n',
  );
  // Node writes its compile cache at a normal exit; a container stopped by SIGKILL never gets one,
  // so the modules compiled for this start are written now, and the next start finds them.
  module.flushCompileCache?.();
  if (module.getCompileCacheDir?.() === undefined) {
    logger.warn('compile cache off (its directory could not be created or written): every start strips types again, ~16 MB more memory; set NODE_COMPILE_CACHE to a directory this user may write');
  }

  return new Promise<number>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) {
        logger.warn({ signal }, 'second signal: exiting now');
        resolve(1);
        return;
      }
      seeding.abort();
      seeded.then(() => service.stop(signal)).then(
        () => resolve(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** What an operator does about a port that cannot be bound; the system's own message stays in front. */
function listenHint(error: unknown, port: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof Error) || (code !== 'EADDRINUSE' && code !== 'EACCES')) return error;
  const hint = code === 'EADDRINUSE'
    ? `another process is listening on port ${port}: stop it, or set PORT (and BASE_URL) to a free port`
    : `this user may not listen on port ${port}: set PORT to 1024 or above, or run behind a proxy`;
  return Object.assign(new Error(`${error.message} (${hint})`), { code });
}
