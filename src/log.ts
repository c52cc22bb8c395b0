// Structured logs (pino). JSON in production and under CI, pretty when attached to a terminal.
// Secrets never reach a log line: request logs carry the path without its query string, and these
// keys are redacted wherever they appear in a logged object.
import { pino, type Logger } from 'pino';

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
