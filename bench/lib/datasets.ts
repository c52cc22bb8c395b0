// Datasets, built once through the service's own seed CLI and cached under ./data/bench, keyed by
// size and schema version (a hash of the migrations); after a schema change a cached dataset is
// migrated forward (migrateForward) rather than rebuilt. SQLite: one file per dataset, built under a temporary name and renamed when
// complete. PostgreSQL: one database per dataset on BENCH_POSTGRES_URL's server (not a schema:
// Kysely's migrator looks for its own tables in every schema of a database, so a schema beside
// another migrated one is taken as migrated); a marker file under ./data/bench records that it is
// complete. Database names are the server's, shared by every checkout that benches against it, so
// each database's comment names the data directory that built it (postgresStanding): a run prunes
// and migrates only its own (another worktree's datasets of another schema are not superseded, only
// different), shares another's complete dataset of its own key, and leaves one being built alone.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { ROOT, runNode } from './proc.ts';
import { serviceEnv } from './service.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Dataset = { key: string; dialect: Dialect; databaseUrl: string; meetings: number; documents?: number; info: Record<string, unknown> };

/**
 * Bump when the way the bench builds datasets changes. Not needed for schema changes: a dataset of
 * an older schema is migrated forward (migrateForward below).
 */
const FORMAT = 1;

export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.DATABASE_URL_TEST ?? 'postgres://postgres@127.0.0.1:5432/test';

export function schemaVersion(): string {
  const dir = join(ROOT, 'src/store/migrations');
  const h = createHash('sha256').update(`format ${FORMAT}\n`);
  for (const f of readdirSync(dir).sort()) h.update(f).update(readFileSync(join(dir, f)));
  return h.digest('hex').slice(0, 10);
}

/** The migrations in order, each with a hash of its file (recorded in markers, checked before migrating forward). */
export function migrationHashes(): [string, string][] {
  const dir = join(ROOT, 'src/store/migrations');
  return readdirSync(dir)
    .filter((f) => /^\d{4}-.+\.ts$/.test(f))
    .sort()
    .map((f) => [f.replace(/\.ts$/, ''), createHash('sha256').update(readFileSync(join(dir, f))).digest('hex').slice(0, 16)]);
}

export async function postgresReachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${POSTGRES_URL} unreachable (${error instanceof Error ? error.message : String(error)}); set BENCH_POSTGRES_URL`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function pgAdmin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Whether the server has this database, and its comment (null: none). */
async function databaseOwner(database: string): Promise<{ exists: boolean; owner: string | null }> {
  const { rows } = await pgAdmin((c) => c.query<{ owner: string | null }>(`select shobj_description(oid, 'pg_database') as owner from pg_database where datname = $1`, [database]));
  return { exists: rows.length > 0, owner: rows[0]?.owner ?? null };
}

function postgresUrl(database: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

const OWNER_PREFIX = 'agent-access bench dataset of ';

/** What a PostgreSQL dataset's database comment says of its owner: the data directory that built it, by its real path (a symlink or a relative path names the same owner). */
const ownerComment = (dir: string) => `${OWNER_PREFIX}${realpathSync(dir)}`;

/** Whether this data directory may prune, migrate or rebuild a database with this comment: its own, or one from before databases were commented. */
const ownedHere = (dir: string, owner: string | null) => owner === null || owner === ownerComment(dir);

/**
 * Removes the request's datasets of other schema versions (files, markers, PostgreSQL databases)
 * once it has been built afresh: they could not be migrated forward. Other requests' datasets stay,
 * whatever their version: they are migrated forward when next asked for. A PostgreSQL database goes
 * only if this data directory owns it: its comment names the directory, or (built before databases
 * were commented) its marker is here.
 */
async function pruneSuperseded(dir: string, request: DatasetRequest, key: string, log: (line: string) => void): Promise<void> {
  const base = baseKey(request);
  // Read before the loop below removes the superseded markers.
  const markedHere = new Set(readdirSync(dir).filter((f) => f.endsWith('.postgres.json')).map((f) => databaseName(f.slice(0, -'.postgres.json'.length))));
  for (const f of readdirSync(dir)) {
    const m = /^(m\d+(?:-d\d+)?)-([0-9a-f]{10})\.(?:(sqlite|postgres)\.json|(?:building\.)?db(?:-wal|-shm)?)$/.exec(f);
    if (!m || m[1] !== base || `${m[1]}-${m[2]}` === key) continue;
    if (m[3] !== undefined ? m[3] !== request.dialect : request.dialect !== 'sqlite') continue;
    rmSync(join(dir, f), { force: true });
    log(`  removed superseded dataset file ${f}`);
  }
  if (request.dialect !== 'postgres' || (await postgresReachable())) return;
  await pgAdmin(async (c) => {
    const { rows } = await c.query<{ datname: string; owner: string | null }>(`select datname, shobj_description(oid, 'pg_database') as owner from pg_database where starts_with(datname, $1)`, [`${databaseName(base)}_`]);
    for (const { datname, owner } of rows) {
      if (datname === databaseName(key) || !/^[0-9a-f]{10}$/.test(datname.slice(databaseName(base).length + 1))) continue;
      if (!ownedHere(dir, owner) || (owner === null && !markedHere.has(datname))) continue;
      await c.query(`drop database if exists ${datname} with (force)`);
      log(`  dropped superseded PostgreSQL dataset ${datname}`);
    }
  });
}

export type DatasetRequest = { dialect: Dialect; meetings: number; documents?: number };

const baseKey = (request: DatasetRequest) => `m${request.meetings}${request.documents ? `-d${request.documents}` : ''}`;
const databaseName = (key: string) => `bench_${key.replaceAll('-', '_')}`;

const datasetUrl = (dir: string, dialect: Dialect, key: string) => (dialect === 'sqlite' ? `sqlite:${join(dir, `${key}.db`)}` : postgresUrl(databaseName(key)));

type Marker = { format?: number; migrations?: [string, string][] };

/** The migrations a dataset has applied, read from the dataset itself. */
async function appliedMigrations(url: string): Promise<string[]> {
  if (url.startsWith('sqlite:')) {
    const db = new DatabaseSync(url.slice('sqlite:'.length), { readOnly: true });
    try {
      return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/**
 * Whether an older dataset can be migrated forward to the current schema: built the same way
 * (FORMAT; markers before it was recorded are format 1), its applied migrations a strict prefix of
 * the current ones (not a dataset of a newer branch), and, where its marker recorded them, none of
 * those migration files edited since (Kysely would not re-run an edited migration).
 */
async function canMigrateForward(dir: string, dialect: Dialect, oldKey: string): Promise<boolean> {
  const marker = JSON.parse(readFileSync(join(dir, `${oldKey}.${dialect}.json`), 'utf8')) as Marker;
  if ((marker.format ?? 1) !== FORMAT) return false;
  // A database another directory built (this one only shares it) is that directory's to migrate.
  if (dialect === 'postgres' && !ownedHere(dir, (await databaseOwner(databaseName(oldKey))).owner)) return false;
  const current = migrationHashes();
  if (marker.migrations && marker.migrations.some(([name, hash], i) => current[i]?.[0] !== name || current[i]?.[1] !== hash)) return false;
  const applied = await appliedMigrations(datasetUrl(dir, dialect, oldKey)).catch(() => undefined);
  if (applied === undefined || !applied.every((name, i) => current[i]?.[0] === name)) return false;
  // All current migrations applied: the same schema under another key (the hash covers index.ts
  // too), which only recorded hashes can vouch for.
  return applied.length < current.length || marker.migrations !== undefined;
}

/** Older-schema datasets of this request, if any (newest marker first). */
function olderKeys(dir: string, request: DatasetRequest, key: string): string[] {
  const pattern = new RegExp(`^${baseKey(request)}-([0-9a-f]{10})\\.${request.dialect}\\.json$`);
  return readdirSync(dir)
    .filter((f) => pattern.test(f) && !f.startsWith(`${key}.`))
    .sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs)
    .map((f) => f.slice(0, f.length - `.${request.dialect}.json`.length));
}

/**
 * Statistics as a freshly built dataset has them (the seed's refreshStatistics): a migration that
 * rewrote a table leaves PostgreSQL's visibility map cleared until autovacuum passes (index-only
 * scans visit the heap) and a new SQLite index without sqlite_stat1 rows.
 */
async function refreshStatistics(url: string): Promise<void> {
  if (url.startsWith('sqlite:')) {
    const db = new DatabaseSync(url.slice('sqlite:'.length));
    try {
      db.exec('analyze');
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

/**
 * A complete dataset for the same request built under an older schema is migrated forward by the
 * service's own `migrate` command, as a production database would be (then its statistics are
 * refreshed, as after a build), and takes the current key:
 * a schema change then costs seconds instead of a rebuild (a 1,000,000-meeting dataset takes half
 * an hour). If it cannot be, it is left alone, and the caller builds afresh (and prunes it).
 */
async function migrateForward(dir: string, request: DatasetRequest, key: string, marker: string, migrations: [string, string][], log: (line: string) => void): Promise<void> {
  let oldKey: string | undefined;
  for (const candidate of olderKeys(dir, request, key)) {
    if (await canMigrateForward(dir, request.dialect, candidate)) {
      oldKey = candidate;
      break;
    }
  }
  if (!oldKey) return;
  log(`  migrating dataset ${oldKey} (${request.dialect}) forward to ${key} …`);
  try {
    await runNode(['src/main.ts', 'migrate'], serviceEnv(datasetUrl(dir, request.dialect, oldKey), 'http://127.0.0.1:3000', join(dir, 'scratch')), 3_600_000);
    await refreshStatistics(datasetUrl(dir, request.dialect, oldKey));
    if (request.dialect === 'sqlite') {
      for (const suffix of ['-wal', '-shm', '']) {
        if (existsSync(join(dir, `${oldKey}.db${suffix}`))) renameSync(join(dir, `${oldKey}.db${suffix}`), join(dir, `${key}.db${suffix}`));
      }
    } else {
      await pgAdmin(async (c) => {
        // A fresh build of this key that was interrupted leaves its database without a marker.
        await c.query(`drop database if exists ${databaseName(key)} with (force)`);
        await c.query(`alter database ${databaseName(oldKey)} rename to ${databaseName(key)}`);
        await c.query(`comment on database ${databaseName(key)} is ${c.escapeLiteral(ownerComment(dir))}`);
      });
    }
  } catch (error) {
    log(`  could not migrate ${oldKey}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}; building afresh`);
    return;
  }
  const info = { ...(JSON.parse(readFileSync(join(dir, `${oldKey}.${request.dialect}.json`), 'utf8')) as Record<string, unknown>), migrations, migratedFrom: oldKey, migratedAt: new Date().toISOString() };
  writeFileSync(marker, JSON.stringify(info, null, 2) + '\n');
  rmSync(join(dir, `${oldKey}.${request.dialect}.json`), { force: true });
  log(`  dataset ${oldKey} migrated forward to ${key}`);
}

/**
 * Before a PostgreSQL dataset of this key is used or built, what the server says of it: a marker
 * here whose database has gone (dropped by hand, a server reset) is removed, so the dataset is built
 * afresh. Without a marker here, a database of this key that another data directory built is that
 * directory's: complete (its marker is there), it is shared, its marker copied here; still being
 * built there, it is left alone and this run stops with an error. A directory that no longer exists
 * owns nothing, and its database is rebuilt here.
 */
async function postgresStanding(dir: string, key: string, marker: string, log: (line: string) => void): Promise<void> {
  const problem = await postgresReachable();
  if (problem) throw new Error(problem);
  const database = databaseName(key);
  const { exists, owner } = await databaseOwner(database);
  if (existsSync(marker)) {
    if (exists) return;
    rmSync(marker);
    log(`  the marker of ${key} (postgres) names a database the server no longer has; building afresh`);
    return;
  }
  if (!exists || ownedHere(dir, owner)) return;
  const other = owner!.startsWith(OWNER_PREFIX) ? owner!.slice(OWNER_PREFIX.length) : undefined;
  if (other === undefined) throw new Error(`PostgreSQL database ${database} has a comment this bench did not write (${JSON.stringify(owner)}): drop or rename it`);
  const theirs = join(other, `${key}.postgres.json`);
  if (existsSync(theirs)) {
    writeFileSync(marker, JSON.stringify({ ...(JSON.parse(readFileSync(theirs, 'utf8')) as Record<string, unknown>), sharedFrom: other }, null, 2) + '\n');
    log(`  using ${database}, built by the bench data directory ${other}`);
    return;
  }
  if (existsSync(other)) throw new Error(`PostgreSQL database ${database} is being built by the bench data directory ${other} (no marker there yet): wait for that run, or drop the database`);
}

/**
 * The dataset for a request: cached if complete, else built now by `agent-access seed --meetings N`
 * (and, for documents, the search module's own writer). `log` reports what is being built.
 */
export async function ensureDataset(dataDir: string, request: DatasetRequest, log: (line: string) => void): Promise<Dataset> {
  const dir = resolve(ROOT, dataDir);
  mkdirSync(dir, { recursive: true });
  // The migrations as the build starts (its seed loads them a moment later), as the key is: a
  // file edited during a long build was recorded as applied when it was not.
  const migrations = migrationHashes();
  const key = `${baseKey(request)}-${schemaVersion()}`;
  const marker = join(dir, `${key}.${request.dialect}.json`);
  const scratch = join(dir, 'scratch');
  mkdirSync(scratch, { recursive: true });
  const database = databaseName(key);
  const finalUrl = datasetUrl(dir, request.dialect, key);
  if (request.dialect === 'postgres') await postgresStanding(dir, key, marker, log);
  if (!existsSync(marker)) await migrateForward(dir, request, key, marker, migrations, log);
  if (existsSync(marker)) {
    const info = JSON.parse(readFileSync(marker, 'utf8')) as Record<string, unknown>;
    return { key, dialect: request.dialect, databaseUrl: finalUrl, meetings: request.meetings, documents: request.documents, info };
  }

  const started = performance.now();
  let buildUrl = finalUrl;
  const buildPath = join(dir, `${key}.building.db`);
  if (request.dialect === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(buildPath + suffix, { force: true });
    buildUrl = `sqlite:${buildPath}`;
  } else {
    await pgAdmin(async (c) => {
      await c.query(`drop database if exists ${database} with (force)`);
      await c.query(`create database ${database}`);
      await c.query(`comment on database ${database} is ${c.escapeLiteral(ownerComment(dir))}`);
    });
  }
  const env = serviceEnv(buildUrl, 'http://127.0.0.1:3000', scratch);
  log(`  building dataset ${key} on ${request.dialect} (seed --meetings ${request.meetings}${request.documents ? `, ${request.documents} documents` : ''}) …`);
  const hours = 6 * 3600_000;
  const progress = (line: string) => log(`    ${line}`);
  await runNode(['src/main.ts', 'seed', '--meetings', String(request.meetings)], env, hours, { progress });
  let documents: Record<string, unknown> = {};
  if (request.documents) {
    const out = await runNode(['bench/service/index-documents.ts', '--count', String(request.documents)], env, hours, { progress });
    documents = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
  }
  if (request.dialect === 'sqlite') {
    rmSync(join(dir, `${key}.db`), { force: true });
    renameSync(buildPath, join(dir, `${key}.db`));
  }
  const info = { format: FORMAT, migrations, builtAt: new Date().toISOString(), buildSeconds: Math.round((performance.now() - started) / 1000), meetings: request.meetings, ...documents };
  writeFileSync(marker, JSON.stringify(info, null, 2) + '\n');
  await pruneSuperseded(dir, request, key, log);
  log(`  dataset ${key} (${request.dialect}) built in ${info.buildSeconds} s`);
  return { key, dialect: request.dialect, databaseUrl: finalUrl, meetings: request.meetings, documents: request.documents, info };
}

/**
 * A private copy of a (small) dataset, for workloads that write a lot (refresh rotation): a file
 * copy on SQLite, a database made from the dataset as its template on PostgreSQL. Without it every
 * run's rotated tokens would stay in the cached dataset and later runs would measure a larger one.
 */
export async function scratchCopy(dataset: Dataset, dataDir: string, name: string): Promise<string> {
  if (dataset.dialect === 'postgres') {
    const database = `bench_scratch_${name.replace(/\W/g, '_')}`;
    await pgAdmin(async (c) => {
      await c.query(`drop database if exists ${database} with (force)`);
      // A template must have no other sessions (a service left over from an interrupted run).
      await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [databaseName(dataset.key)]);
      await c.query(`create database ${database} template ${databaseName(dataset.key)}`);
    });
    return postgresUrl(database);
  }
  const source = dataset.databaseUrl.slice('sqlite:'.length);
  const target = join(resolve(ROOT, dataDir), 'scratch', `${name}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(target + suffix, { force: true });
  copyFileSync(source, target);
  return `sqlite:${target}`;
}

/** Measured on the demo generator (2026-11): ~94 KB of SQLite file per Northwind meeting (transcripts dominate). */
const BYTES_PER_MEETING = 94_000;

/**
 * Whether a SQLite dataset of this size fits on the disk (with 10% to spare). Cached datasets
 * always fit; the estimate uses the largest cached dataset's bytes per meeting when there is one.
 */
export function sqliteFits(dataDir: string, meetings: number): { fits: boolean; needGb: number; freeGb: number } {
  const dir = resolve(ROOT, dataDir);
  mkdirSync(dir, { recursive: true });
  const free = statfsSync(dir);
  const freeGb = (free.bavail * free.bsize) / 2 ** 30;
  // Cached, in this schema or an older one that ensureDataset migrates forward in place.
  if (readdirSync(dir).some((f) => new RegExp(`^m${meetings}-[0-9a-f]{10}\\.sqlite\\.json$`).test(f))) return { fits: true, needGb: 0, freeGb };
  let perMeeting = BYTES_PER_MEETING;
  let largest = 0;
  for (const f of readdirSync(dir)) {
    const m = /^m(\d+)-[0-9a-f]+\.db$/.exec(f);
    if (!m) continue;
    const n = Number(m[1]);
    if (n > largest && n >= 1000) {
      largest = n;
      perMeeting = statSync(join(dir, f)).size / n;
    }
  }
  const needGb = (meetings * perMeeting * 1.1) / 2 ** 30;
  return { fits: needGb < freeGb, needGb, freeGb };
}

/** Meetings in the largest complete SQLite meetings dataset cached (any schema: ensureDataset migrates it forward), a stand-in when the wanted one cannot be built. */
export function largestCachedSqlite(dataDir: string): number | undefined {
  const dir = resolve(ROOT, dataDir);
  if (!existsSync(dir)) return undefined;
  const sizes = readdirSync(dir)
    .map((f) => /^m(\d+)-[0-9a-f]{10}\.sqlite\.json$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => b - a);
  return sizes[0];
}
