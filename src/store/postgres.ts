// Kysely over node-postgres. BIGINT (epoch milliseconds) is parsed to a JS number: all our
// bigints are timestamps or counters far below 2^53.
import pg from 'pg';
import { PostgresDialect } from 'kysely';

const INT8_OID = 20;

export type PostgresOptions = { url: string; poolMax: number };

export function createPostgresPool(options: PostgresOptions): pg.Pool {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax,
    types,
    // Fail fast when the database is down: callers answer 503 instead of hanging.
    connectionTimeoutMillis: 3000,
    query_timeout: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

export function postgresDialect(pool: pg.Pool): PostgresDialect {
  return new PostgresDialect({ pool });
}
