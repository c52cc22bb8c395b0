// Which instance runs a periodic job this time: the one that claims it first. A claim records the
// start and succeeds only when the job's last start (by any instance) is at least `minGapMs` old,
// in one statement, so of instances that try at once exactly one wins on either database (on
// PostgreSQL the losers wait for the winner's row and then see its start).
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** True when this caller may run `name` now; it is then recorded as started at `at`. */
export async function claimJobRun(db: Kysely<Database>, name: string, at: number, minGapMs: number): Promise<boolean> {
  const claimed = await db
    .insertInto('job_runs')
    .values({ name, started_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ started_at: at }).where('job_runs.started_at', '<=', at - minGapMs))
    .returning('name')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Gives back the claim made at `startedAt` (a run that failed), so the next tick anywhere tries again; a later claim is left alone. */
export async function releaseJobRun(db: Kysely<Database>, name: string, startedAt: number): Promise<void> {
  await db.deleteFrom('job_runs').where('name', '=', name).where('started_at', '=', startedAt).execute();
}
