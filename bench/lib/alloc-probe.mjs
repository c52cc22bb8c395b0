// Loaded with `--import` into a service contender by `npm run bench -- --alloc-profile`: V8's
// sampling heap profiler from the process's start to its exit, counting the objects either GC has
// collected too, so the profile is of what was allocated (what drives scavenges and promotion),
// not of what is still alive. Written to BENCH_ALLOC_PROFILE when the harness stops the process.
// JavaScript, not TypeScript: a .ts probe would load Node's type stripper into the process it measures.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const out = process.env.BENCH_ALLOC_PROFILE;
if (out) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.enable');
  // One sample per 16 KB allocated on average: cheap enough under load, and millions of samples a round.
  session.post('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // An in-process session answers synchronously, so the file is written before this returns.
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (!error) writeFileSync(out, JSON.stringify(result.profile));
    });
  };
  process.on('exit', write);
  // The harness stops a contender with SIGTERM. The service shuts down on it and exits (then this has
  // written already); a process with no handler of its own would die without an exit event, and
  // with this listener alone would not die at all: it exits as the signal would have ended it.
  process.on('SIGTERM', () => {
    write();
    if (process.listenerCount('SIGTERM') === 1) process.exit(143);
  });
}
