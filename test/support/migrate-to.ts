// Migrates a test store up (or down) to one named migration: an older schema, for upgrade tests.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Store } from '../../src/store/database.ts';
import { migrations } from '../../src/store/migrations/index.ts';

export async function migrateTo(store: Store, target: string): Promise<void> {
  const db = store.maintenanceDb();
  const schema = store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s : undefined;
  const result = await new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateTo(target);
  if (result.error) throw result.error;
}
