// The worker thread of sqlite-checkpointer.ts: folds SQLite's log (WAL) back into the database file
// on a connection of its own, so the serving thread's commits only append to the log. Plain
// JavaScript: a TypeScript entry would load Node's type stripper into the worker (~15 MB more).
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';

const { path, intervalMs } = workerData;
const db = new DatabaseSync(path);
// Passive: copies what no reader still needs and never waits for a reader or a writer. It fails
// with SQLITE_BUSY while another connection checkpoints; the next round tries again.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {}
}, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
