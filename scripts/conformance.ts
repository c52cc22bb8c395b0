// npm run conformance: starts the service in conformance mode (MCP_CONFORMANCE_MODE, loopback only,
// fresh SQLite database) and runs the official MCP conformance suite against it: the server scenarios
// on the fixture endpoint for 2025-11-25 with @modelcontextprotocol/conformance 0.1.x and, with the
// 0.2.0 line (installed as `conformance-next`), the frozen requirement sets of 2025-11-25 and
// 2026-07-28; then the authorization-server scenarios against the issuer, consent scripted in
// Chromium. Prints one table; exits non-zero on an unexpected failure. Scenarios listed in
// conformance/expected-failures.yaml (features we deliberately do not offer) are reported as
// "expected"; scenarios the suite itself does not score (extensions, pending) as "not scored".
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../src/config/load.ts';
import { startService } from '../src/server.ts';
import { runAuthorizationScenarios } from './conformance-authorization.ts';
import { freePort } from '../test/support/free-port.ts';

const require = createRequire(import.meta.url);
const bin = (pkg: string) => join(dirname(require.resolve(`${pkg}/package.json`)), 'dist/index.js');
const version = (pkg: string) => (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;
const EXPECTED_FILE = join(import.meta.dirname, '../conformance/expected-failures.yaml');

type Suite = { label: string; pkg: string; args: string[] };
type Row = { suite: string; scenario: string; passed: number; failed: number; status: 'pass' | 'expected' | 'not scored' | 'FAIL' };

/** The scenario names under `server:` in expected-failures.yaml (`  - name  # reason`). */
function expectedFailures(): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(EXPECTED_FILE, 'utf8').split('\n')) {
    const m = /^\s+-\s+([a-z0-9-]+)/.exec(line);
    if (m) names.add(m[1]!);
  }
  return names;
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 }, (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
  });
}

/**
 * The suite's summary lines (`✓ tools-list: 3 passed, 0 failed`, `✗ ping: 0 passed, 1 failed`) and its
 * "Not scored for …" list (`  ✗ tasks-lifecycle (extension)`), which do not affect conformance.
 */
function parseSummary(output: string, suite: string, expected: Set<string>): Row[] {
  const notScored = new Set([...output.matchAll(/^\s+[✓✗]\s+([a-z0-9/-]+) \((?:extension|pending|draft)\)/gm)].map((m) => m[1]!));
  const rows: Row[] = [];
  for (const m of output.matchAll(/^[✓✗]\s+([a-z0-9/-]+):\s+(\d+) passed, (\d+) failed/gm)) {
    const [, scenario = '', passed = '0', failed = '0'] = m;
    const bad = Number(failed) > 0;
    const status = !bad ? 'pass' : notScored.has(scenario) ? 'not scored' : expected.has(scenario) ? 'expected' : 'FAIL';
    rows.push({ suite, scenario, passed: Number(passed), failed: Number(failed), status });
  }
  return rows;
}

const port = await freePort();
const baseUrl = `http://localhost:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'aas-conformance-'));
const config = loadConfig({ APP_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, DATABASE_URL: `sqlite:${join(dataDir, 'db.sqlite')}`, DATA_DIR: dataDir, LOG_LEVEL: 'silent', LOG_FORMAT: 'json', MCP_CONFORMANCE_MODE: 'true' });
const service = await startService(config, pino({ level: 'silent' }));
const url = `${baseUrl}/conformance/mcp`;
const expected = expectedFailures();
const old = `conformance ${version('@modelcontextprotocol/conformance')}`;
const next = `conformance ${version('conformance-next')}`;
const suites: Suite[] = [
  { label: `2025-11-25 server (${old})`, pkg: '@modelcontextprotocol/conformance', args: ['server', '--url', url, '--spec-version', '2025-11-25'] },
  { label: `2025-11-25 server (${next})`, pkg: 'conformance-next', args: ['server', '--url', url, '--requirements', '2025-11-25'] },
  { label: `2026-07-28 server (${next})`, pkg: 'conformance-next', args: ['server', '--url', url, '--requirements', '2026-07-28'] },
];
const authLabel = `authorization server (${next})`;

// `npm run conformance -- --serve`: only start the fixture endpoint, to run single scenarios by hand.
if (process.argv.includes('--serve')) {
  console.log(`conformance fixture endpoint: ${url} (issuer ${baseUrl}); Ctrl-C to stop`);
  await new Promise(() => {});
}

const rows: Row[] = [];
try {
  for (const suite of suites) {
    process.stderr.write(`running ${suite.label} against ${url} …\n`);
    const output = await run(bin(suite.pkg), suite.args);
    const parsed = parseSummary(output, suite.label, expected);
    if (parsed.length === 0) process.stderr.write(output.slice(-4000));
    rows.push(...parsed);
  }
  process.stderr.write(`running ${authLabel} against ${baseUrl} (consent in Chromium) …\n`);
  const auth = await runAuthorizationScenarios(bin('conformance-next'), baseUrl, `${baseUrl}/mcp`, await freePort(), 'conformance@conformance-suite.example');
  const parsed = parseSummary(auth.output, authLabel, expected);
  if (parsed.length === 0) process.stderr.write(auth.output.slice(-4000));
  rows.push(...parsed);
} finally {
  await service.stop('conformance finished');
}

console.log('| suite | scenario | checks passed | checks failed | result |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.suite} | ${r.scenario} | ${r.passed} | ${r.failed} | ${r.status} |`);
console.log('');
for (const label of [...suites.map((s) => s.label), authLabel]) {
  const mine = rows.filter((r) => r.suite === label);
  const count = (s: Row['status']) => mine.filter((r) => r.status === s).length;
  console.log(`${label}: ${mine.length} scenarios — ${count('pass')} pass, ${count('expected')} expected failures, ${count('not scored')} failing but not scored by the suite, ${count('FAIL')} unexpected failures`);
}
process.exitCode = rows.length === 0 || rows.some((r) => r.status === 'FAIL') ? 1 : 0;
