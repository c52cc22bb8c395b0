// One row per periodic job: when an instance last started it. Every instance runs the job's timer,
// and a run begins only where its instance claims the row (store/job-runs.ts), so a fleet of
// instances on one PostgreSQL database runs the hourly housekeeping once an hour between them, not
// once per instance with overlapping purges. Empty until a job first runs.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_runs').ifExists().execute();
}
