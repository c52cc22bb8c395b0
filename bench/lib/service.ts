// The service as a contender: the environment it runs under in a bench, and the process spec
// that starts it (`agent-access serve`, exactly as `npm start` does).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { runNode, type ProcessSpec } from './proc.ts';
import { variables } from '../../src/config/defaults.ts';

// Fixed secrets for bench databases only: the token issuer (a separate process) and the service
// must hash tokens with the same key.
export const BENCH_SECRETS = {
  HASH_SECRET: 'bench-only-hash-secret-not-for-production-use-0001',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** Every per-second/minute/hour rate limit the config declares, raised: a benchmark is one user at full speed. */
function unlimitedRates(): Record<string, string> {
  const names = Object.keys(variables).filter((n) => /_PER_(?:MINUTE|HOUR|SECOND)$/.test(n));
  return Object.fromEntries(names.map((n) => [n, '1000000']));
}

/** The Redis server the service on PostgreSQL counts its rate limits in (useRedisIfReachable). */
export const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';
let redisForPostgres: string | undefined;

/**
 * Production runs several instances on PostgreSQL and Redis (architecture.md), and every MCP and
 * OAuth request then counts its rate limits in Redis: the service on PostgreSQL is measured so,
 * when Redis answers (asked once a run). On SQLite it keeps them in memory, as `npm start` does. A
 * service given an unreachable Redis still becomes ready and counts in memory (README, Production),
 * so it would be measured without Redis and reported with it: the PostgreSQL cases then run without
 * REDIS_URL, and the results say so. Returns the sentence the results carry.
 */
export async function useRedisIfReachable(url = BENCH_REDIS_URL): Promise<string> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    redisForPostgres = url;
    return `the service on PostgreSQL counts its rate limits in Redis at ${url}, as production does; on SQLite in memory, as \`npm start\` does`;
  } catch (error) {
    redisForPostgres = undefined;
    return `Redis at ${url} unreachable (${error instanceof Error ? error.message : String(error)}; set BENCH_REDIS_URL): the service counts its rate limits in memory on both databases`;
  } finally {
    client.disconnect();
  }
}

export function serviceEnv(databaseUrl: string, baseUrl: string, dataDir: string): Record<string, string> {
  return {
    ...(redisForPostgres && databaseUrl.startsWith('postgres') ? { REDIS_URL: redisForPostgres } : {}),
    APP_ENV: 'development',
    HOST: '127.0.0.1',
    BASE_URL: baseUrl,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    // Access logs off: the anchors log nothing, and a pipe to the harness is not what production pays.
    LOG_LEVEL: 'warn',
    // Production never loads the demo identity provider (oidc-provider, ~20 MB of heap): neither does the bench.
    DEMO_IDP: 'false',
    LOG_FORMAT: 'json',
    ...BENCH_SECRETS,
    ...unlimitedRates(),
  };
}

/**
 * The arguments of `node` that run the service as `npm start` does (package.json `scripts.start`):
 * its Node options (the young generation's size, …) and its entry (a JavaScript file that turns the
 * compile cache on before any TypeScript loads, as an absolute path), with `nodeArgs` (e.g. an
 * `--import` probe) after the options and `command` (`serve` by default) after the entry. The bench,
 * the soak and the process tests start the service exactly so, read from the one place.
 */
export function startArgs(command: string[] = ['serve'], nodeArgs: string[] = []): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const [node, ...words] = pkg.scripts.start.split(/\s+/);
  const entry = words.at(-2);
  if (node !== 'node' || words.at(-1) !== 'serve' || !entry || entry.startsWith('-')) throw new Error(`package.json scripts.start is not "node [options] <entry> serve": ${pkg.scripts.start}`);
  return [...words.slice(0, -2), ...nodeArgs, fileURLToPath(new URL(`../../${entry}`, import.meta.url)), ...command];
}

/**
 * Fills Node's compile cache for the service as `npm start` runs it (the same options: V8's flags
 * key the cache), so no measured start pays a cold one: a restart in production finds the cache
 * its last start wrote (README, Memory). `--help` loads every module `serve` does with the demo
 * identity provider off.
 */
export async function warmCompileCache(): Promise<void> {
  await runNode(startArgs(['--help']), {}, 120_000);
}

/** `agent-access serve` on a database, as `npm start` runs it; BASE_URL follows the port the harness picks. */
export function serviceProcess(databaseUrl: string, dataDir: string): ProcessSpec {
  return {
    args: startArgs(),
    env: (port: number) => serviceEnv(databaseUrl, `http://127.0.0.1:${port}`, dataDir),
    readyPath: '/readyz',
    readyTimeoutMs: 120_000,
  };
}
