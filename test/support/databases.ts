// Test databases: a fresh SQLite file, or a fresh PostgreSQL schema, per test (or per suite), so
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

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'aas-test-'));
    const path = join(dir, 'test.db');
    return { dialect, config: { kind: 'sqlite', path }, url: `sqlite:${path}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_TEST_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `PostgreSQL at ${POSTGRES_TEST_URL} is unreachable (${reason}). Start it, point DATABASE_URL_TEST at one, or set SKIP_POSTGRES=1 to skip the PostgreSQL half locally.`,
    );
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(POSTGRES_TEST_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dialect,
    config: { kind: 'postgres', url: url.toString(), poolMax: 10 },
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_TEST_URL });
      await c.connect();
      try {
        await c.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await c.end();
      }
    },
  };
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
