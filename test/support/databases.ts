// Test databases: a fresh SQLite file, or a fresh PostgreSQL database, per test (or per suite), so
// runs never collide. PostgreSQL is required: it fails loudly when unreachable unless the
// developer opts out locally with SKIP_POSTGRES=1 (refused under CI).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config/load.ts';
import { migrateToLatest, openStore, type Dialect, type Store } from '../../src/store/database.ts';

export const POSTGRES_TEST_URL = process.env.DATABASE_URL_TEST ?? 'postgres://postgres@127.0.0.1:5432/test';

export function dialectsUnderTest(): Dialect[] {
  if (process.env.SKIP_POSTGRES === '1') {
    if (process.env.CI) throw new Error('SKIP_POSTGRES=1 is refused under CI: the PostgreSQL half must run');
    return ['sqlite'];
  }
  return ['sqlite', 'postgres'];
}

export type TestDatabase = {
  dialect: Dialect;
  config: DatabaseConfig;
  /** The same database as a DATABASE_URL value, for spawned processes. */
  url: string;
  drop(): Promise<void>;
};

/**
 * PostgreSQL options, each from template0 instead of the server's default: `ctype`, the database's
 * LC_CTYPE and LC_COLLATE; `icuLocale`, ICU as its locale provider with that locale.
 */
export async function createTestDatabase(dialect: Dialect, options: { ctype?: string; icuLocale?: string } = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'aas-test-'));
    const path = join(dir, 'test.db');
    return { dialect, config: { kind: 'sqlite', path }, url: `sqlite:${path}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  // A database of its own (not a schema): Kysely's migrator introspects every table of the
  // database, which races with other test processes dropping their schemas in a shared one.
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const locale = [options.ctype === undefined ? '' : ` lc_ctype '${options.ctype}' lc_collate '${options.ctype}'`, options.icuLocale === undefined ? '' : ` locale_provider icu icu_locale '${options.icuLocale}'`].join('');
  await adminQuery(locale ? `create database ${name} template template0${locale}` : `create database ${name}`);
  const url = new URL(POSTGRES_TEST_URL);
  url.pathname = `/${name}`;
  return {
    dialect,
    config: { kind: 'postgres', url: url.toString(), poolMax: 10 },
    url: url.toString(),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_TEST_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `PostgreSQL at ${POSTGRES_TEST_URL} is unreachable (${reason}). Start it, point DATABASE_URL_TEST at one, or set SKIP_POSTGRES=1 to skip the PostgreSQL half locally.`,
    );
  }
  try {
    await admin.query(statement);
  } finally {
    await admin.end().catch(() => {});
  }
}

/** A migrated store on a fresh database; `cleanup` closes it and drops the database. */
export async function openTestStore(dialect: Dialect): Promise<{ store: Store; database: TestDatabase; cleanup(): Promise<void> }> {
  const database = await createTestDatabase(dialect);
  const store = openStore(database.config);
  await migrateToLatest(store);
  return {
    store,
    database,
    cleanup: async () => {
      await store.close();
      await database.drop();
    },
  };
}
