// Polling for something another thread or process does: a worker's checkpoint, a server's log
// line, a periodic job's delete.

/** Waits, every 50 ms up to `deadlineMs` (30 s), for `done`; the assertion after it says what failed. */
export async function waitUntil(done: () => boolean | Promise<boolean>, deadlineMs = 30_000): Promise<void> {
  for (const until = Date.now() + deadlineMs; !(await done()) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50));
}
