// Kysely over node:sqlite (no native build). node:sqlite binds positional arguments, not arrays,
// and exposes no `reader` flag, so a small adapter gives Kysely the interface it expects.
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver, SqliteQueryCompiler, type DatabaseConnection, type DialectAdapter, type Driver, type QueryCompiler, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { withLiteralLimits } from './literal-limit.ts';

function toSqlite(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  return value as SQLInputValue;
}

/**
 * Whether a statement's result columns are fixed by its own text: no `*` in it but count(*)'s and a
 * leading comment's (the planned-per-call mark, plan-cache.ts). SQLite re-prepares a cached
 * statement after a schema change, and only a `*` can then bring other columns back; anything else
 * (a multiplication) merely counts as a `*` here.
 */
const fixedColumns = (sql: string) => !sql.replace(/^\s*\/\*.*?\*\/\s*/s, '').replace(/count\(\*\)/gi, '').includes('*');

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * Rows as ordinary objects, built here from node:sqlite's arrays. node:sqlite's own row objects
 * have a null prototype and dictionary-mode properties: slow to build and slow to read. The
 * builder is an object literal with the names as (JSON-quoted) keys, so every row of a statement
 * has one shape. Names repeat as in node:sqlite's objects (and in any object literal): the later
 * value wins, at the first one's place. In process, a list_meetings call took ~25% less time with
 * this than with node:sqlite's objects, and ~30 µs less than with columns assigned in a loop.
 */
function rowBuilder(names: readonly string[]): RowBuilder {
  const body = `return {${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')}};`;
  return new Function('v', body) as RowBuilder;
}

function rowsFrom(arrays: unknown[][], build: RowBuilder): Record<string, unknown>[] {
  const rows = new Array<Record<string, unknown>>(arrays.length);
  for (let r = 0; r < arrays.length; r++) rows[r] = build(arrays[r]!);
  return rows;
}

class Statement implements SqliteStatement {
  readonly reader: boolean;
  readonly #stmt: StatementSync;
  /** When the result columns are fixed (fixedColumns): rows are read as arrays and built by this. */
  readonly #build: RowBuilder | undefined;
  constructor(stmt: StatementSync, sql: string) {
    this.#stmt = stmt;
    const columns = stmt.columns();
    this.reader = columns.length > 0;
    const names = columns.map((c) => c.name);
    // A column named __proto__ would set an ordinary object's prototype: node:sqlite's rows keep it as a column.
    if (this.reader && fixedColumns(sql) && !names.includes('__proto__')) {
      this.#build = rowBuilder(names);
      stmt.setReturnArrays(true);
    }
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const rows = this.#stmt.all(...parameters.map(toSqlite));
    return this.#build ? rowsFrom(rows as unknown as unknown[][], this.#build) : rows;
  }
  run(parameters: ReadonlyArray<unknown>) {
    return this.#stmt.run(...parameters.map(toSqlite));
  }
  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    const build = this.#build;
    for (const row of this.#stmt.iterate(...parameters.map(toSqlite))) yield build ? build(row as unknown as unknown[]) : row;
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * WAL pages before the serving connection's own commit folds the log back into the database file,
 * when no worker checkpoints it (sqlite-checkpointer.ts: before the first write, after close, or
 * when a store's worker failed to start or died).
 * SQLite's default (1,000 pages) made roughly every hundredth token request pay a checkpoint and its
 * two fsyncs. Hot pages (index roots, the newest token rows) are rewritten many times between
 * checkpoints and copied once, so a larger log copies less.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;
/**
 * The same while the worker checkpoints: the log's length under continuous writes (~262 MB of 4 KB
 * pages). SQLite starts the log over only when a write begins with all of it copied, which a
 * worker copying beside continuous commits never sees; at the cap the serving connection copies
 * what the worker has not (with its two fsyncs, on the event loop), and the next write starts the
 * log over. A quarter of this cap more than doubled W4's p99 (bench/FINDINGS.md).
 */
export const WAL_CAP_PAGES = 64_000;
/**
 * A log file longer than this is cut back to it when the log starts over (after a long reader held
 * it open, or at the cap). It is above the cap's log, so a log that has grown to the cap is written
 * over in place: cutting it back to 64 MB and growing it again cost W4 ~10 % of its throughput.
 */
const WAL_SIZE_LIMIT_BYTES = 320 * 1024 * 1024;

/**
 * The pragmas of every connection that writes the file: WAL, synchronous NORMAL (durable across a
 * process crash, kill -9: README "Storage"), the in-line checkpoint and the log's size limit. The
 * W4 anchor's adapter takes them too.
 */
export function applyPragmas(db: DatabaseSync): void {
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  db.exec('PRAGMA foreign_keys = ON');
}

/** Opens the file in WAL mode (applyPragmas) with a 5 s busy timeout and a statement cache. */
export function openSqlite(path: string): DatabaseSync & SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: 5000 });
  applyPragmas(db);
  const prepareSync = db.prepare.bind(db);
  // Kysely prepares every query anew; the same few hundred SQL texts repeat on every request, so
  // prepared statements are kept (LRU). SQLite re-prepares a cached statement after a schema change.
  const cache = new Map<string, Statement>();
  const prepare = (sql: string) => {
    const hit = cache.get(sql);
    if (hit) {
      cache.delete(sql);
      cache.set(sql, hit);
      return hit;
    }
    const statement = new Statement(prepareSync(sql), sql);
    if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(sql, statement);
    return statement;
  };
  return Object.assign(db, { prepare }) as unknown as DatabaseSync & SqliteDatabase;
}

// Write transactions take the write lock at BEGIN (IMMEDIATE), so two processes on one file wait
// for each other (busy timeout) instead of failing a read-to-write upgrade with SQLITE_BUSY.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

// SQLite runs DDL inside transactions. Saying so makes Kysely's migrator wrap each run in one
// (BEGIN IMMEDIATE above), which serialises processes that start on the same file at once.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

// Page sizes are written into the SQL rather than bound (literal-limit.ts).
const LiteralLimitSqliteQueryCompiler = withLiteralLimits(SqliteQueryCompiler);

export class NodeSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase;
  constructor(database: SqliteDatabase) {
    super({ database });
    this.#database = database;
  }
  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitSqliteQueryCompiler();
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.#database });
  }
}
