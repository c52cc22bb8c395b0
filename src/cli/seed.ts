// `agent-access seed [--meetings N] [--seed TEXT]`: load the demo dataset into the database.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.ts';
import { migrateToLatest, openStore } from '../store/database.ts';
import { commandStoreLog } from './admin-common.ts';
import { AlreadySeededError, BULK_RECORD_SHARE, DEFAULT_MEETINGS, MAX_MEETINGS, demoSeedState, seedDemo } from '../data/seed.ts';
import { progressBar } from '../data/progress.ts';
import { DEMO_ACCOUNTS } from '../data/orgs.ts';
import { listOrganizations } from '../store/organizations.ts';
import type { AppContext } from '../http/context.ts';

export function demoAccountsText(): string {
  return ['  Demo accounts (sign in with the demo identity provider):', ...DEMO_ACCOUNTS.map((a) => `    ${a.email.padEnd(32)} ${a.role.padEnd(8)} ${a.org}`)].join('\n');
}

export async function seedCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { meetings: { type: 'string' }, seed: { type: 'string' }, 'all-transcripts': { type: 'boolean' } }, strict: true });
  const meetings = values.meetings === undefined ? DEFAULT_MEETINGS : Number(values.meetings);
  if (!Number.isInteger(meetings) || meetings < 10 || meetings > MAX_MEETINGS) {
    process.stderr.write(`agent-access seed: --meetings must be a whole number from 10 to ${MAX_MEETINGS.toLocaleString('en-US')}\n`);
    return 2;
  }
  const config = loadConfig();
  const store = openStore(config.database, commandStoreLog);
  try {
    await migrateToLatest(store);
    const started = performance.now();
    if (meetings > DEFAULT_MEETINGS && !values['all-transcripts']) {
      process.stderr.write(`  Meetings beyond the first ${DEFAULT_MEETINGS.toLocaleString('en-US')} are recorded at ${BULK_RECORD_SHARE * 100}% to bound disk use (~80 KB per transcript); --all-transcripts records every call.\n`);
    }
    const summary = await seedDemo(store, { meetings, seed: values.seed, progress: progressBar('meetings'), allTranscripts: values['all-transcripts'] });
    const seconds = (performance.now() - started) / 1000;
    for (const o of summary.organizations) {
      process.stdout.write(`  ${o.name}: ${o.users} users, ${o.accounts} accounts, ${o.deals} deals, ${o.meetings.toLocaleString('en-US')} meetings\n`);
    }
    process.stdout.write(`  ${summary.rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s\n${demoAccountsText()}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AlreadySeededError) {
      process.stderr.write('agent-access seed: the demo organizations already exist in this database; use a fresh DATABASE_URL to seed again.\n');
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}

/** Meetings seeded by `npm start` on an empty development database: quick on a fresh machine. */
export const FIRST_START_MEETINGS = 1000;

/**
 * On the first development start (no organization at all), loads the demo dataset so the service
 * has something to show. Never in production. Returns whether it seeded.
 */
export async function seedOnFirstStart(ctx: AppContext, signal?: AbortSignal): Promise<boolean> {
  if (ctx.config.env !== 'development') return false;
  if ((await listOrganizations(ctx.store.db)).length > 0) {
    if ((await demoSeedState(ctx.store)) === 'partial') {
      process.stderr.write(
        '  The demo dataset is incomplete: an earlier first start was stopped while loading it.\n' +
          '  To start over, stop the service, delete the database (DATABASE_URL) and run npm start again.\n',
      );
    }
    return false;
  }
  process.stderr.write(`  Empty database: loading the demo dataset (${FIRST_START_MEETINGS.toLocaleString('en-US')} meetings; \`agent-access seed --meetings N\` for more)...\n`);
  await seedDemo(ctx.store, { meetings: FIRST_START_MEETINGS, appUrl: ctx.config.appUrl, progress: progressBar('meetings'), signal });
  ctx.logger.info('demo dataset loaded');
  return true;
}
