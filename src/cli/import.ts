// `agent-access import DIR --org DOMAIN`: load NDJSON files (one per record type) into an organization.
import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { loadConfig } from '../config/load.ts';
import { migrateToLatest, openStore } from '../store/database.ts';
import { commandStoreLog } from './admin-common.ts';
import { findOrganizationByDomain, listOrganizations } from '../store/organizations.ts';
import { importDirectory } from '../data/import.ts';
import { IMPORT_ORDER } from '../data/import-schemas.ts';

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { org: { type: 'string' } }, allowPositionals: true, strict: true });
  const dir = positionals[0];
  if (!dir || positionals.length > 1) {
    process.stderr.write(`Usage: agent-access import DIR [--org DOMAIN]   (--org is needed when the database holds several organizations)\n  DIR holds one NDJSON file per record type: ${IMPORT_ORDER.map((t) => `${t}.ndjson`).join(', ')}.\n`);
    return 2;
  }
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    process.stderr.write(`agent-access import: ${dir} is not a directory\n`);
    return 2;
  }
  const config = loadConfig();
  const store = openStore(config.database, commandStoreLog);
  try {
    await migrateToLatest(store);
    let org = values.org ? await findOrganizationByDomain(store.db, values.org) : undefined;
    if (!values.org) {
      const all = await listOrganizations(store.db);
      if (all.length !== 1) {
        process.stderr.write(`agent-access import: name the organization with --org DOMAIN (${all.length === 0 ? 'the database has none yet' : `one of ${all.flatMap((o) => o.domains).join(', ')}`})\n`);
        return 2;
      }
      org = all[0];
    }
    if (!org) {
      process.stderr.write(`agent-access import: no organization holds the domain ${values.org}\n`);
      return 1;
    }
    const reports = await importDirectory(store, org.id, dir);
    let failed = false;
    for (const r of reports) {
      if (r.status === 'absent') continue;
      process.stdout.write(`${r.status === 'imported' ? 'imported' : 'REJECTED'}  ${r.file}  (${r.rows} rows)\n`);
      for (const issue of r.issues) process.stdout.write(`  ${issue.file}:${issue.line}: ${issue.message}\n`);
      failed ||= r.status === 'rejected';
    }
    if (reports.every((r) => r.status === 'absent')) {
      process.stderr.write(`agent-access import: no ${IMPORT_ORDER.map((t) => `${t}.ndjson`).join(', ')} in ${dir}\n`);
      return 1;
    }
    return failed ? 1 : 0;
  } finally {
    await store.close();
  }
}
