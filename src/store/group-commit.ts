// Group commit for short write transactions on SQLite. One connection writes at a time, and a
// commit's cost is mostly the pages it appends to the write-ahead log: a token refresh dirties about
// ten, most of them the same few (the newest leaf of each table and index) in every refresh. The
// transactions that arrive in the same turn of the event loop are therefore run one after another
// inside one BEGIN IMMEDIATE … COMMIT, each inside its own savepoint: a transaction that throws is
// rolled back to its savepoint and fails alone, the others keep their writes. Each caller's promise
// settles only after the shared COMMIT, so nobody answers from a write that is not yet durable.
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

  const runBatch = async (jobs: Job[]) => {
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
      while (queue.length > 0) await runBatch(queue.splice(0, GROUP_COMMIT_MAX));
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
