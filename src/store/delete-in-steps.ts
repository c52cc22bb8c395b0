// A purge of a table's old rows, a bounded number per statement. On SQLite a statement holds the
// serving thread, so a backlog goes in steps with a turn of the event loop (requests answered)
// between them; on PostgreSQL each step is a short transaction of its own.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Runs `step` (which deletes at most `batch` rows and says how many) until one deletes fewer; returns the total. */
export async function deleteInSteps(step: () => Promise<number>, batch: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await step();
    deleted += n;
    if (n < batch) return deleted;
    await nextTurn();
  }
}
