// Group commit for short write transactions on SQLite. One connection writes at a time, and a
// commit's cost is mostly the pages it appends to the write-ahead log: a token refresh dirties about
// ten, most of them the same few (the newest leaf of each table and index) in every refresh. The
// transactions that arrive in the same turn of the event loop are therefore run one after another
// inside one BEGIN IMMEDIATE … COMMIT. They first run side by side with no savepoints: a savepoint
// makes SQLite copy every page a job first touches into a sub-journal (a temporary file), ~30 µs
// of a ~95 µs refresh's writes, measured. Only if a job throws is that transaction rolled back and
// the batch run again, each job inside its own savepoint: a transaction that throws is rolled back
// to its savepoint and fails alone, the others keep their writes. So a job may run twice (its first
// run's writes undone), which is why it must have no effect outside its transaction. Each caller's
// promise settles only after the shared COMMIT, so nobody answers from a write that is not yet durable.
//
// Serial execution inside the batch gives each transaction the isolation it had alone (node:sqlite
// is synchronous: nothing else runs on the connection meanwhile). A transaction must only use the
// handle it is given, exactly as with Kysely's own transaction(), one query at a time, and await
// nothing but its queries: the batch holds the store's only connection until every job is done.
// (A job that calls transact again would wait behind its own batch forever: the store refuses it.)
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type WriteTransaction<T> = (trx: Transaction<Database>) => Promise<T>;

/** A bound on one batch: a long queue is committed in several, so no caller waits behind hundreds. */
export const GROUP_COMMIT_MAX = 64;

type Job = { fn: WriteTransaction<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };

const SAVEPOINT = CompiledQuery.raw('savepoint group_commit_job');
const RELEASE = CompiledQuery.raw('release group_commit_job');
const ROLLBACK_TO = CompiledQuery.raw('rollback to group_commit_job');

export function groupCommit(db: Kysely<Database>): <T>(fn: WriteTransaction<T>) => Promise<T> {
  const queue: Job[] = [];
  let running = false;

  /**
   * Every job in one transaction, no savepoints. True when the batch is settled: committed, or
   * refused as a whole (BEGIN or COMMIT failed, or the one job threw); false when one of several
   * jobs threw, its neighbours' writes rolled back with it, and the batch must run isolated.
   */
  const runTogether = async (jobs: Job[]): Promise<boolean> => {
    const values: unknown[] = [];
    let failed: { error: unknown } | undefined;
    try {
      await db.transaction().execute(async (trx) => {
        for (const job of jobs) {
          try {
            values.push(await job.fn(trx));
          } catch (error) {
            failed = { error };
            throw error;
          }
        }
      });
    } catch (error) {
      if (failed && jobs.length > 1) return false;
      // The job's own error, not a ROLLBACK's that may follow it (after SQLite ended the transaction).
      for (const job of jobs) job.reject(failed ? failed.error : error);
      return true;
    }
    jobs.forEach((job, i) => job.resolve(values[i]));
    return true;
  };

  /** Every job in its own savepoint of one transaction: a job that throws fails alone. */
  const runIsolated = async (jobs: Job[]) => {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    /** Set when undoing a failed job ended the whole transaction (SQLite does so on FULL, IOERR, NOMEM). */
    let lost: Error | undefined;
    try {
      await db.transaction().execute(async (trx) => {
        for (const job of jobs) {
          await trx.executeQuery(SAVEPOINT);
          try {
            const value = await job.fn(trx);
            await trx.executeQuery(RELEASE);
            outcomes.push({ ok: true, value });
          } catch (error) {
            try {
              await trx.executeQuery(ROLLBACK_TO);
            } catch (undo) {
              lost = new Error(`a group commit's transaction ended while a failed job was undone: ${undo instanceof Error ? undo.message : String(undo)}`, { cause: error });
              throw lost;
            }
            await trx.executeQuery(RELEASE);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // BEGIN, a savepoint statement or COMMIT failed: nothing of the batch was kept. Kysely's own
      // ROLLBACK may fail after a lost transaction and hide why; the first cause is the one kept.
      for (const job of jobs) job.reject(lost ?? error);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error);
    });
  };

  const drain = async () => {
    running = true;
    try {
      // Let every request that is already readable reach its write before the batch starts.
      await new Promise<void>((r) => setImmediate(r));
      while (queue.length > 0) {
        const jobs = queue.splice(0, GROUP_COMMIT_MAX);
        if (!(await runTogether(jobs))) await runIsolated(jobs);
      }
    } finally {
      running = false;
    }
  };

  return <T>(fn: WriteTransaction<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn: fn as WriteTransaction<unknown>, resolve: resolve as (value: unknown) => void, reject });
      if (!running) void drain();
    });
}
