// SQLite's log (WAL) checkpointed off the serving thread. A checkpoint in line, in the commit that
// fills the log, copies the log's pages into the database file and waits for two fsyncs (~35 ms on
// these machines' disks for 4,000 pages, ~6 ms of it the copy) with the event loop stopped: every
// request in flight waits. Here a worker thread with its own connection checkpoints every
// CHECKPOINT_INTERVAL_MS, and the serving connection's own checkpoint moves out to WAL_CAP_PAGES
// (sqlite.ts says why a cap is still needed).
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';
import { WAL_AUTOCHECKPOINT_PAGES, WAL_CAP_PAGES } from './sqlite.ts';

/** How often the worker checkpoints. An idle round reads the log's index and copies nothing. */
export const CHECKPOINT_INTERVAL_MS = 50;

/**
 * The worker's heap. It holds one prepared statement and a timer: 8 MB is the least Node's own
 * start-up in a worker runs in. The worker costs ~15 MB of RSS in all (a V8 isolate and Node).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 };

export type Checkpointer = { stop(): Promise<void> };

/**
 * Starts checkpointing the file that `db` (the serving connection, opened by openSqlite) has open.
 * Should the worker fail to start or die, the serving connection checkpoints in line again every
 * WAL_AUTOCHECKPOINT_PAGES, as without it. stop() resolves once the worker has closed its connection.
 */
export function startCheckpointer(path: string, db: DatabaseSync): Checkpointer {
  const worker = new Worker(new URL('./sqlite-checkpoint-worker.js', import.meta.url), {
    workerData: { path, intervalMs: CHECKPOINT_INTERVAL_MS },
    execArgv: [],
    resourceLimits: WORKER_LIMITS,
  });
  // A process that closes nothing may still exit: the worker does not hold it open.
  worker.unref();
  let stopping = false;
  const checkpointEvery = (pages: number) => {
    if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
  };
  worker.once('online', () => checkpointEvery(WAL_CAP_PAGES));
  // An error is followed by 'exit'; the in-line checkpoint covers both.
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping) checkpointEvery(WAL_AUTOCHECKPOINT_PAGES);
      resolve();
    }),
  );
  return {
    stop() {
      if (!stopping) {
        stopping = true;
        checkpointEvery(WAL_AUTOCHECKPOINT_PAGES);
        // Held open until the worker has closed its connection, so close() resolves first.
        worker.ref();
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}
