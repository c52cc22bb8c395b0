// `agent-access migrate`: apply pending migrations and exit (also done on every start).
import { loadConfig } from '../config/load.ts';
import { migrateToLatest, openStore } from '../store/database.ts';
import { commandStoreLog } from './admin-common.ts';

export async function migrateCommand(): Promise<number> {
  const config = loadConfig();
  const store = openStore(config.database, commandStoreLog);
  try {
    const result = await migrateToLatest(store);
    const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    return 0;
  } finally {
    await store.close();
  }
}
