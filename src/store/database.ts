// One store, two dialects. Dialect differences live here as capability flags, never as
// `if (sqlite)` scattered through repositories.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, SqliteAdapter, sql } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { DatabaseConfig } from '../config/load.ts';
import type { Database } from './schema.ts';
import { NodeSqliteDialect, openSqlite } from './sqlite.ts';
import { startCheckpointer, type CheckpointLog } from './sqlite-checkpointer.ts';
import { createPostgresPool, postgresDialect } from './postgres.ts';
import { usePlannedOnce } from './plan-cache.ts';
import { migrations } from './migrations/index.ts';
import { groupCommit, type WriteTransaction } from './group-commit.ts';

export type Dialect = 'sqlite' | 'postgres';

export type Capabilities = {
  /** Full-text search engine behind DocumentIndex, and the index kind behind list_meetings' `q` (migration 0016). */
  fullText: 'fts5' | 'tsvector';
  /** Whether concurrent writers in one process run in parallel (pool) or one at a time. */
  parallelWriters: boolean;
  /**
   * Whether every statement is a network round trip (PostgreSQL). A hot path then gathers what it
   * can in one statement; where a statement costs none (SQLite), separate queries can be cheaper
   * than the JSON that would join them.
   */
  roundTrips: boolean;
  /**
   * How a text with letters beyond ASCII is found ignoring case (sales/like.ts): each letter as a
   * class of its cases, in a GLOB over SQLite's lower() (which folds ASCII alone) or a regular
   * expression (PostgreSQL's, whose lower() follows the database's locale). A text of ASCII and
   * uncased characters is a LIKE with ASCII folded alone: SQLite's lower(), PostgreSQL's under the
   * "C" collation.
   */
  caseClasses: 'glob' | 'regex';
};

const SQLITE_CAPABILITIES: Capabilities = Object.freeze({ fullText: 'fts5', parallelWriters: false, roundTrips: false, caseClasses: 'glob' });
const POSTGRES_CAPABILITIES: Capabilities = Object.freeze({ fullText: 'tsvector', parallelWriters: true, roundTrips: true, caseClasses: 'regex' });

/** The capabilities of the database behind a handle: a store's `db` or a transaction of it (they share the dialect's adapter). */
export function capabilitiesOf(db: Kysely<Database>): Capabilities {
  return db.getExecutor().adapter instanceof SqliteAdapter ? SQLITE_CAPABILITIES : POSTGRES_CAPABILITIES;
}

export type Store = {
  db: Kysely<Database>;
  dialect: Dialect;
  capabilities: Capabilities;
  /** Resolves when the database answers a trivial query within the timeout, rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Fresh planner statistics after a bulk load (seed, import), so the keyset and visibility indexes
   * are chosen from the start; on PostgreSQL also the visibility map, without which an index-only
   * scan still visits the heap until autovacuum passes.
   */
  refreshStatistics(): Promise<void>;
  /**
   * A short write transaction on a request path (the token grants). On SQLite the ones that arrive
   * together share one commit (group-commit.ts); on PostgreSQL each is its own transaction on a pool
   * connection, which commit in parallel. A job must use only the handle it is given, one query at
   * a time, await nothing else, and have no effect outside its transaction (on SQLite it runs
   * again, its first writes undone, when a job beside it fails). Calling transact from inside a
   * job is refused with NestedTransactionError on both dialects (on SQLite it would wait behind its
   * own batch forever, on PostgreSQL it would not see the outer job's writes).
   */
  transact<T>(fn: WriteTransaction<T>): Promise<T>;
  /**
   * The database for migrations and bulk writes (document and sales-data imports): on PostgreSQL a connection of
   * its own without the request path's 10 s query timeout (a migration may rewrite millions of
   * rows; an import batch may wait for another's lock), opened on first use; after close() it
   * throws StoreClosedError.
   */
  maintenanceDb(): Kysely<Database>;
  close(): Promise<void>;
};

/** `log` hears of trouble the store meets outside any caller's query (SQLite's checkpoints). */
export function openStore(config: DatabaseConfig, log?: CheckpointLog): Store {
  if (config.kind === 'sqlite') {
    const database = openSqlite(config.path);
    const checkpointer = config.path === ':memory:' ? undefined : startCheckpointer(config.path, database, log);
    const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(database) });
    return makeStore(db, 'sqlite', SQLITE_CAPABILITIES, { maintenanceDb: () => db, closeCheckpointer: () => checkpointer?.stop() });
  }
  // The instance's connections are shared by two pools: statements planned once (plan-cache.ts) and the rest.
  const plannedOncePoolMax = Math.max(1, Math.floor(config.poolMax / 2));
  const db = new Kysely<Database>({ dialect: postgresDialect(createPostgresPool({ url: config.url, poolMax: Math.max(1, config.poolMax - plannedOncePoolMax) })) });
  const plannedOnce = new Kysely<Database>({ dialect: postgresDialect(createPostgresPool({ url: config.url, poolMax: plannedOncePoolMax, planCacheMode: 'force_generic_plan' })) });
  usePlannedOnce(db, plannedOnce);
  // Migrations, document and sales-data imports and the VACUUM after a bulk load run here, not under the pool's
  // 10 s query timeout (fail fast on a request path), which would cut them off on a large database.
  let maintenance: Kysely<Database> | undefined;
  const maintenanceDb = () =>
    (maintenance ??= new Kysely<Database>({ dialect: postgresDialect(createPostgresPool({ url: config.url, poolMax: 1, queryTimeoutMs: MAINTENANCE_TIMEOUT_MS })) }));
  return makeStore(db, 'postgres', POSTGRES_CAPABILITIES, { maintenanceDb, closeMaintenance: () => maintenance?.destroy(), closePlannedOnce: () => plannedOnce.destroy() });
}

/** How long a migration or the statistics maintenance after a bulk load may take (a VACUUM of millions of rows). */
const MAINTENANCE_TIMEOUT_MS = 6 * 3600_000;

type Maintenance = {
  maintenanceDb: () => Kysely<Database>;
  closeMaintenance?: () => Promise<void> | undefined;
  closePlannedOnce?: () => Promise<void>;
  closeCheckpointer?: () => Promise<void> | undefined;
};

export class NestedTransactionError extends Error {
  constructor() {
    super('store.transact was called inside a store.transact job: use the transaction handle the job was given');
  }
}

/** store.transact: the dialect's way to run a job, refusing a job that starts another. */
function guardedTransact(run: <T>(fn: WriteTransaction<T>) => Promise<T>): Store['transact'] {
  const inJob = new AsyncLocalStorage<true>();
  return (fn) => (inJob.getStore() ? Promise.reject(new NestedTransactionError()) : run((trx) => inJob.run(true, () => fn(trx))));
}

function makeStore(db: Kysely<Database>, dialect: Dialect, capabilities: Capabilities, { maintenanceDb, closeMaintenance, closePlannedOnce, closeCheckpointer }: Maintenance): Store {
  let closed: Promise<void> | undefined;
  // After close() a maintenance pool opened here would never be closed.
  const openMaintenance = () => {
    if (closed) throw new StoreClosedError('the store is closed: no maintenance connection is opened after close()');
    return maintenanceDb();
  };
  const transact = guardedTransact(dialect === 'sqlite' ? groupCommit(db) : <T>(fn: WriteTransaction<T>) => db.transaction().execute(fn));
  return {
    db,
    dialect,
    capabilities,
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([sql`select 1`.execute(db), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async refreshStatistics() {
      await (dialect === 'postgres' ? sql`vacuum analyze`.execute(openMaintenance()) : sql`analyze`.execute(db));
    },
    transact,
    maintenanceDb: openMaintenance,
    close() {
      closed ??= Promise.all([db.destroy(), closeMaintenance?.(), closePlannedOnce?.(), closeCheckpointer?.()]).then(() => undefined);
      return closed;
    },
  };
}

export class MigrationError extends Error {}

export class StoreClosedError extends Error {}

async function migratorOf(store: Store): Promise<Migrator> {
  // Kysely looks for its migration tables in every schema unless told which one; on PostgreSQL name
  // the current schema, or a kysely_migration_lock in another schema (another test run) is mistaken for ours.
  const db = store.maintenanceDb();
  const migrationTableSchema =
    store.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
}

/**
 * Applies every pending migration. Idempotent; safe when several processes start at once.
 * `beforeApplying` hears the names of those not applied yet, in order, when there are any.
 */
export async function migrateToLatest(store: Store, beforeApplying?: (pending: string[]) => void): Promise<MigrationResultSet> {
  const migrator = await migratorOf(store);
  if (beforeApplying) {
    const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
    if (pending.length > 0) beforeApplying(pending);
  }
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new MigrationError(`migration ${failed ?? '(setup)'} failed: ${cause}`);
  }
  return result;
}
