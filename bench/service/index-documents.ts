// Indexes the demo documents of Northwind Software at a benchmark size, through the search
// module's own writer (seedDemoDocuments → indexDocuments; the migration's triggers fill FTS5 or
// the tsvector). Run as a child with DATABASE_URL set, on a database the seed CLI has filled.
// Usage: node bench/service/index-documents.ts --count 10000   (prints {documents, chunks})
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config/load.ts';
import { migrateToLatest, openStore } from '../../src/store/database.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { listTeams } from '../../src/store/teams.ts';

const { values } = parseArgs({ options: { count: { type: 'string' } }, strict: true });
const count = Number(values.count ?? '150');
const search = (await import('../../src/search/index.ts')) as Record<string, unknown>;
const seedDemoDocuments = search.seedDemoDocuments as
  | ((store: unknown, orgId: string, teams: { id: string; name: string }[], options: { count: number; onBatch?: (d: { documents: number; chunks: number }) => void }) => Promise<{ documents: number; chunks: number }>)
  | undefined;
if (!seedDemoDocuments) throw new Error('src/search/index.ts does not export seedDemoDocuments');

const config = loadConfig();
const store = openStore(config.database);
try {
  await migrateToLatest(store);
  const org = await findOrganizationByDomain(store.db, 'northwind.example');
  if (!org) throw new Error('Northwind Software is not in this database: run the seed CLI first');
  const teams = (await listTeams(store.db, org.id)).map((t) => ({ id: t.id, name: t.name }));
  const started = performance.now();
  let last = 0;
  const result = await seedDemoDocuments(store, org.id, teams, {
    count,
    onBatch: (d) => {
      if (performance.now() - last < 2000) return;
      last = performance.now();
      process.stderr.write(`  documents ${d.documents.toLocaleString('en-US')}/${count.toLocaleString('en-US')}, ${d.chunks.toLocaleString('en-US')} chunks, ${(d.documents / ((last - started) / 1000)).toFixed(0)}/s\n`);
    },
  });
  // As the seed does: fresh statistics (and, on PostgreSQL, the visibility map) before anything is measured.
  await store.refreshStatistics();
  process.stdout.write(JSON.stringify(result) + '\n');
} finally {
  await store.close();
}
