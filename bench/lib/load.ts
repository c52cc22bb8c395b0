// Runs one load (autocannon) in its own child process and parses its JSON result.
import type { LoadResult, LoadSpec } from './driver.ts';
import { runNode } from './proc.ts';

/** How long the driver (autocannon) waits for one response before it counts a timeout. */
export const REQUEST_TIMEOUT_S = 10;

const DRIVER = new URL('./driver.ts', import.meta.url).pathname;

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const out = await runNode([DRIVER], {}, (spec.durationS + 60) * 1000, { stdin: JSON.stringify(spec) });
  const line = out.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as LoadResult;
}

export type { LoadResult, LoadSpec };
