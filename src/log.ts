// Structured logs (pino). JSON in production and under CI, pretty when attached to a terminal.
// Secrets never reach a log line: request logs carry the path without its query string, and these
// keys are redacted wherever they appear in a logged object.
import { pino, type LogFn, type Logger } from 'pino';

export type { Logger };

const redactedKeys = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'registration_access_token',
  'secret',
];

export function createLogger(options: { level: string; format: 'json' | 'pretty' }): Logger {
  const redact = { paths: redactedKeys.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]), censor: '[redacted]' };
  if (options.format === 'pretty') {
    return pino({
      level: options.level,
      redact,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
    });
  }
  return pino({ level: options.level, redact, base: { service: 'agent-access' } });
}

/** What request handlers log through (`c.get('log')`): the levels they use. */
export type RequestLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/**
 * The request's child logger, made on its first line: pino's child() serializes and redacts its
 * bindings (~4% of a token refresh's CPU), and most requests log nothing but the access line, which
 * is written by the parent with the same bindings.
 */
export function lazyChild(logger: Logger, bindings: Record<string, string>): RequestLogger {
  let child: Logger | undefined;
  const level = (name: keyof RequestLogger): LogFn =>
    ((...args: Parameters<LogFn>) => {
      if (!logger.isLevelEnabled(name)) return;
      child ??= logger.child(bindings);
      child[name](...args);
    }) as LogFn;
  return { debug: level('debug'), info: level('info'), warn: level('warn'), error: level('error') };
}
