// Shared plumbing for the admin commands (orgs, users): open the migrated store, find an
// organization by id or domain, print tables or JSON, and a usage error that exits 2.
import { loadConfig, type Config } from '../config/load.ts';
import { migrateToLatest, openStore, type Store } from '../store/database.ts';
import type { CheckpointLog } from '../store/sqlite-checkpointer.ts';
import { findOrganization, findOrganizationByDomain, type Organization } from '../store/organizations.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** What a command's store meets outside its queries (SQLite's checkpoints), on stderr: a command has no service log. */
export const commandStoreLog: CheckpointLog = { warn: writeStoreLine, info: writeStoreLine };

function writeStoreLine(details: { err?: unknown }, message: string): void {
  process.stderr.write(`agent-access: ${message}${typeof details.err === 'string' ? ` (${details.err})` : ''}\n`);
}

export async function withStore<T>(run: (store: Store, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = openStore(config.database, commandStoreLog);
  try {
    await migrateToLatest(store);
    return await run(store, config);
  } finally {
    await store.close();
  }
}

export async function requireOrganization(store: Store, ref: string | undefined): Promise<Organization> {
  if (!ref) throw new UsageError('--org <id or domain> is required');
  const org = ref.includes('.') && !ref.startsWith('org_') ? await findOrganizationByDomain(store.db, ref) : await findOrganization(store.db, ref);
  if (!org) throw new UsageError(`no organization ${JSON.stringify(ref)} (give its id or one of its domains)`);
  return org;
}

export function printTable(rows: Array<Record<string, string>>): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  process.stdout.write([line(columns), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n') + '\n');
}

/** Runs a subcommand; usage errors print the help and exit 2. */
export async function dispatch(args: string[], subcommands: Record<string, (args: string[]) => Promise<number>>, usage: string): Promise<number> {
  const [name, ...rest] = args;
  const run = name ? subcommands[name] : undefined;
  if (!run || rest.includes('--help')) {
    (run ? process.stdout : process.stderr).write(usage);
    return run ? 0 : 2;
  }
  try {
    return await run(rest);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`agent-access: ${error.message}\n\n${usage}`);
      return 2;
    }
    throw error;
  }
}

export const day = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().slice(0, 10));
