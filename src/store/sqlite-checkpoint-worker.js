// The worker thread of sqlite-checkpointer.ts: folds SQLite's log (WAL) back into the database file
// on a connection of its own, so the serving thread's commits only append to the log. Plain
// JavaScript: a TypeScript entry would load Node's type stripper into the worker (~15 MB more).
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';

const { path, intervalMs, reportEveryMs } = workerData;
const db = new DatabaseSync(path);
// Passive: copies what no reader still needs and never waits for a reader or a writer. While
// another connection checkpoints it answers busy (a row, not an error); the next round tries again.
// What it throws is the file system's (disk full, an I/O error): reported to the serving thread at
// most once per reportEveryMs, however failures and successes alternate, and a success after a
// reported failure once.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
/** Rounds failed in a row. */
let failures = 0;
let reportedAt = -Infinity;
/** A failure was reported that no success has answered yet. */
let unanswered = false;
const timer = setInterval(() => {
  try {
    checkpoint.get();
    if (unanswered) parentPort.postMessage({ kind: 'recovered', failures });
    unanswered = false;
    failures = 0;
  } catch (error) {
    failures += 1;
    const now = Date.now();
    if (now - reportedAt < reportEveryMs) return;
    reportedAt = now;
    unanswered = true;
    parentPort.postMessage({ kind: 'failed', failures, errcode: error?.errcode, errstr: error?.errstr, message: String(error?.message ?? error) });
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
