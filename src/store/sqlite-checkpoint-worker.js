// The worker thread of sqlite-checkpointer.ts: folds SQLite's log (WAL) back into the database file
// on a connection of its own, so the serving thread's commits only append to the log. Plain
// JavaScript: a TypeScript entry would load Node's type stripper into the worker (~15 MB more).
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';

const { path, intervalMs, reportEveryMs } = workerData;
const db = new DatabaseSync(path);
// Passive: copies what no reader still needs and never waits for a reader or a writer. While
// another connection checkpoints it answers busy (a row, not an error); the next round tries again.
// What it throws is the file system's (disk full, an I/O error): reported to the serving thread,
// the first failure at once and then one report per reportEveryMs while they go on, and once more
// when a checkpoint succeeds again.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let failures = 0;
let reportedAt = 0;
const timer = setInterval(() => {
  try {
    checkpoint.get();
    if (failures > 0) parentPort.postMessage({ kind: 'recovered', failures });
    failures = 0;
  } catch (error) {
    failures += 1;
    const now = Date.now();
    if (failures === 1 || now - reportedAt >= reportEveryMs) {
      reportedAt = now;
      parentPort.postMessage({ kind: 'failed', failures, errcode: error?.errcode, errstr: error?.errstr, message: String(error?.message ?? error) });
    }
  }
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
