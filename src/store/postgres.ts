// Kysely over node-postgres. BIGINT (epoch milliseconds) is parsed to a JS number: all our
// bigints are timestamps or counters far below 2^53.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { PostgresDialect, PostgresQueryCompiler, type QueryCompiler } from 'kysely';
import { withLiteralLimits } from './literal-limit.ts';
import { PLANNED_PER_CALL } from './plan-cache.ts';

const INT8_OID = 20;

/**
 * Server-side prepared statements, per connection. Kysely sends every query unnamed, so
 * PostgreSQL parses and plans it on every execution: for the meeting list (two joins) planning
 * took 0.25-1 ms against 0.15 ms of execution. Naming a statement by a hash of its text lets a
 * connection parse it once and, after five executions, reuse a generic plan where PostgreSQL
 * estimates it no dearer than the custom ones. For a keyset page it does not: such statements run
 * on a second pool whose connections force generic plans (plan-cache.ts, `planCacheMode`). Forcing
 * them on every connection would also reach the search statements, whose plans depend on their
 * values (W3 at 100,000 documents went from 45 to 78-100 ms p95). Only plain DML is named, and at
 * most MAX_NAMED_PER_CONNECTION texts per connection (a few hundred shapes exist; `in (…)` lists
 * of different lengths are different texts), so server memory stays bounded.
 *
 * A schema change (another instance migrating during a rolling deploy) makes PostgreSQL refuse a
 * prepared `select *` whose columns changed ("cached plan must not change result type"), on every
 * later execution. Such a statement is deallocated, never named again on that connection, and the
 * call is retried once unnamed; inside a transaction the retry fails as the transaction already has.
 * Named statements need session pooling: behind PgBouncer in transaction mode, turn this off by
 * pointing the service straight at PostgreSQL or at a session-mode pool.
 */
const MAX_NAMED_PER_CONNECTION = 2000;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;

const isStalePlan = (error: unknown) =>
  (error as { code?: unknown })?.code === '0A000' && /cached plan must not change result type/i.test(String((error as { message?: unknown }).message));

/** Names by text, shared by every connection: the few hundred texts are hashed once, not per query. */
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `k${createHash('sha256').update(text).digest('base64url').slice(0, 40)}`;
    if (names.size >= MAX_NAMED_PER_CONNECTION) names.delete(names.keys().next().value as string);
    names.set(text, name);
  }
  return name;
}

function nameStatements(client: pg.PoolClient): void {
  const named = new Set<string>();
  const stale = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  client.query = ((text: unknown, values: unknown, ...rest: unknown[]) => {
    if (rest.length > 0 || typeof text !== 'string' || !Array.isArray(values) || !NAMEABLE.test(text) || text.startsWith(PLANNED_PER_CALL)) return query(text, values, ...rest);
    const name = statementName(text);
    if (stale.has(name)) return query(text, values);
    if (!named.has(name)) {
      if (named.size >= MAX_NAMED_PER_CONNECTION) return query(text, values);
      named.add(name);
    }
    return query({ name, text, values }).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      stale.add(name);
      query(`deallocate "${name}"`).catch(() => undefined);
      return query(text, values);
    });
  }) as typeof client.query;
}

/**
 * `queryTimeoutMs`: how long one query may run (default 10 s: fail fast on a request path).
 * `planCacheMode`: the connections' plan_cache_mode, for the pool of planned-once statements.
 */
export type PostgresOptions = { url: string; poolMax: number; queryTimeoutMs?: number; planCacheMode?: 'force_generic_plan' };

/**
 * The connection string without its `options` parameter, and that parameter's value: node-postgres
 * lets a URL's `options` replace the pool's whole, which dropped the session options below. Kept
 * instead, before them: an operator's other settings apply, and these win where both set one.
 */
function splitUrlOptions(url: string): { url: string; options: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, options: undefined };
  }
  const options = parsed.searchParams.get('options') ?? undefined;
  if (options === undefined) return { url, options };
  parsed.searchParams.delete('options');
  return { url: parsed.toString(), options };
}

export function createPostgresPool(options: PostgresOptions): pg.Pool {
  const { url, options: urlOptions } = splitUrlOptions(options.url);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax,
    types,
    // Fail fast when the database is down: callers answer 503 instead of hanging.
    connectionTimeoutMillis: 3000,
    query_timeout: options.queryTimeoutMs ?? 10_000,
    // JIT off: every statement here runs in milliseconds, and compiling one costs ~0.6 s. A list
    // read by a JSON array of ids (meeting-text.ts candidates) is estimated past jit_above_cost
    // (the array's rows are unknown to the planner): a member's 9 ms page took ~0.68 s with JIT.
    //
    // READ COMMITTED, whatever the server's or role's default: the triggers that copy a meeting's
    // start, owner and deal onto its participants (migrations 0011, 0017, 0018) read the meeting
    // `for share` and rely on it. Under REPEATABLE READ a meeting's new deal could miss a
    // participant written meanwhile, which would keep the old deal, and show it to a viewer.
    options: [...(urlOptions ? [urlOptions] : []), '-c jit=off', '-c default_transaction_isolation=read\\ committed', ...(options.planCacheMode ? [`-c plan_cache_mode=${options.planCacheMode}`] : [])].join(' '),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', nameStatements);
  return pool;
}

// Page sizes are written into the SQL rather than bound (literal-limit.ts), so a named list
// statement's generic plan knows how many rows it returns.
const LiteralLimitPostgresQueryCompiler = withLiteralLimits(PostgresQueryCompiler);

class LiteralLimitPostgresDialect extends PostgresDialect {
  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitPostgresQueryCompiler();
  }
}

export function postgresDialect(pool: pg.Pool): PostgresDialect {
  return new LiteralLimitPostgresDialect({ pool });
}
