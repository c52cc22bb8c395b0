// `npm run conformance` as a regression test: the official MCP conformance suite (server scenarios of
// 2025-11-25 and 2026-07-28, and the authorization-server scenarios with consent in Chromium) must
// report no unexpected failure. The script prints the table; its exit code is the verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

test('the MCP conformance suite reports no unexpected failure (npm run conformance)', { timeout: 300_000 }, async () => {
  const script = new URL('../../scripts/conformance.ts', import.meta.url).pathname;
  const result = await run(process.execPath, [script], { timeout: 280_000, maxBuffer: 16 * 1024 * 1024 }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  const table = result.stdout;
  assert.match(table, /2026-07-28 server \(conformance 0\.2\.\S+\): \d+ scenarios — \d+ pass, 0 expected failures, \d+ failing but not scored by the suite, 0 unexpected failures/);
  assert.match(table, /2025-11-25 server \(conformance 0\.1\.\S+\): \d+ scenarios — \d+ pass, \d+ expected failures, 0 failing but not scored by the suite, 0 unexpected failures/);
  assert.match(table, /authorization server \(conformance 0\.2\.\S+\): 2 scenarios — 2 pass/);
  assert.doesNotMatch(table, /\| FAIL \|/, table);
  assert.equal('code' in result ? result.code : 0, 0, result.stderr.slice(-2000));
});
