// SQLite's log (WAL) checkpointed off the serving thread. A checkpoint in line, in the commit that
// fills the log, copies the log's pages into the database file and waits for two fsyncs (~35 ms on
// these machines' disks for 4,000 pages, ~6 ms of it the copy) with the event loop stopped: every
// request in flight waits. Here a worker thread with its own connection checkpoints every
// CHECKPOINT_INTERVAL_MS from the first write on, and the serving connection's own checkpoint moves
// out to WAL_CAP_PAGES (sqlite.ts says why a cap is still needed).
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';
import { WAL_AUTOCHECKPOINT_PAGES, WAL_CAP_PAGES } from './sqlite.ts';

/** How often the worker checkpoints. An idle round reads the log's index and copies nothing. */
export const CHECKPOINT_INTERVAL_MS = 50;

/**
 * The worker's heap. It holds one prepared statement and a timer: 8 MB is the least Node's own
 * start-up in a worker runs in. The worker costs ~14 MB of RSS in all (a V8 isolate and Node).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 };

/** How often, at most, the worker reports a failed checkpoint: the first at once, then one line a minute while they go on. */
export const FAILURE_REPORT_EVERY_MS = 60_000;

/** Where the checkpointer reports trouble: the service's logger (pino's call shape). */
export type CheckpointLog = {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
};

/**
 * How often a store that has not written looks at its log. The worker starts once the log holds
 * anything: a process that only reads (W1's, a read-only CLI command) never pays for it.
 */
export const WRITE_POLL_MS = 1000;

export type Checkpointer = {
  /** Whether the worker runs: from the first write seen (within WRITE_POLL_MS) until stop() or its failure. */
  readonly running: boolean;
  stop(): Promise<void>;
};

/**
 * Checkpoints the file that `db` (the serving connection) has open, from a worker started once
 * the log holds anything. Should the worker fail to start or die, the serving connection
 * checkpoints in line again every WAL_AUTOCHECKPOINT_PAGES, as without it. stop() resolves once the
 * worker has closed its connection. What goes wrong is told to `log`: a worker that could not start
 * or stopped on its own, and checkpoints that fail (the file system's errors: disk full, I/O).
 */
export function startCheckpointer(path: string, db: DatabaseSync, log?: CheckpointLog): Checkpointer {
  let worker: Worker | undefined;
  let exited = Promise.resolve();
  let stopping = false;
  const checkpointEvery = (pages: number) => {
    if (db.isOpen) db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
  };
  const start = () => {
    const started = new Worker(new URL('./sqlite-checkpoint-worker.js', import.meta.url), {
      workerData: { path, intervalMs: CHECKPOINT_INTERVAL_MS, reportEveryMs: FAILURE_REPORT_EVERY_MS },
      execArgv: [],
      resourceLimits: WORKER_LIMITS,
    });
    started.once('online', () => {
      if (!stopping) checkpointEvery(WAL_CAP_PAGES);
    });
    started.on('message', (message: WorkerReport) => report(message, log));
    // An error is followed by 'exit', which puts the in-line checkpoint back (after stop() too).
    let failure: unknown;
    started.on('error', (error) => {
      failure = error;
    });
    exited = new Promise<void>((resolve) =>
      started.once('exit', (exitCode) => {
        worker = undefined;
        checkpointEvery(WAL_AUTOCHECKPOINT_PAGES);
        if (!stopping) log?.warn({ exitCode, err: messageOf(failure) }, 'SQLite checkpoint worker stopped: the serving connection checkpoints in line from now on');
        resolve();
      }),
    );
    // A process that closes nothing may still exit: the worker does not hold it open. After the
    // 'message' listener, which holds the worker again.
    started.unref();
    worker = started;
  };
  const poll = setInterval(() => {
    if ((statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) === 0) return;
    clearInterval(poll);
    try {
      start();
    } catch (error) {
      // No thread to be had (the process's limits): the serving connection keeps checkpointing in line.
      log?.warn({ err: messageOf(error) }, 'SQLite checkpoint worker not started: the serving connection checkpoints in line');
    }
  }, WRITE_POLL_MS);
  poll.unref();
  return {
    get running() {
      return worker !== undefined;
    },
    stop() {
      if (!stopping) {
        stopping = true;
        clearInterval(poll);
        if (worker) {
          // Held open until the worker has closed its connection, so close() resolves first.
          worker.ref();
          worker.postMessage('stop');
        }
      }
      return exited;
    },
  };
}

/** What the worker posts (sqlite-checkpoint-worker.js). */
type WorkerReport =
  | { kind: 'failed'; failures: number; errcode?: number; errstr?: string; message: string }
  | { kind: 'recovered'; failures: number };

function report(message: WorkerReport, log: CheckpointLog | undefined): void {
  if (message.kind === 'failed') {
    log?.warn(
      { failures: message.failures, sqliteCode: message.errcode, sqliteError: message.errstr, err: message.message },
      message.failures === 1
        ? 'SQLite checkpoint failed: the log (-wal) grows until one succeeds'
        : 'SQLite checkpoints still failing: the log (-wal) grows until one succeeds',
    );
  } else {
    log?.info({ failures: message.failures }, 'SQLite checkpoints succeed again');
  }
}

const messageOf = (error: unknown): string | undefined => (error === undefined ? undefined : error instanceof Error ? error.message : String(error));
