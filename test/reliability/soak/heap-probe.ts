// Preloaded into the soak's server (`node --expose-gc --import …`): on SIGUSR2, a full garbage
// collection, then the JS heap in use written to HEAP_PROBE_FILE. A leak in our code shows in the
// collected heap; RSS over a short run mostly shows V8 growing its heap lazily.
import { writeFileSync } from 'node:fs';

const file = process.env.HEAP_PROBE_FILE;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  process.on('SIGUSR2', () => {
    gc();
    writeFileSync(file, `${Date.now()} ${process.memoryUsage().heapUsed}\n`);
  });
}
