// The database file cannot grow (a full disk, as the process's file-size limit stands in for one,
// set on the running server with prlimit): SQLite's checkpoint worker cannot copy the log into the
// file. The service goes on answering, since commits only append to the log; the operator reads
// the failure in the log, once and not every 50 ms; once the file can grow again the checkpoints
// catch up, and every registration answered 201 is in the database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { MAIN, runCli } from '../support/cli.ts';
import { serveOnFreePort, type ServeProcess } from '../support/serve-process.ts';
import { registerClient } from './support/oauth-flow.ts';
import { waitUntil } from '../support/wait-until.ts';
import { FAILURE_REPORT_EVERY_MS } from '../../src/store/sqlite-checkpointer.ts';

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;

/**
 * Sets the running process's file-size limit (RLIMIT_FSIZE, bytes). The soft limit only: lowering
 * the hard one could not be undone without CAP_SYS_RESOURCE, which a container may not grant.
 */
const limitFileSize = (pid: number, bytes: number | 'unlimited') => execFileSync('prlimit', [`--pid=${pid}`, `--fsize=${bytes}:unlimited`]);

const logLines = (output: string, message: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; failures?: number; sqliteError?: string })
    .filter((line) => line.msg.startsWith(message));

describe('SQLite on a full disk (the database file cannot grow)', { skip: !hasPrlimit && 'needs prlimit (util-linux)' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'aas-full-'));
  const path = join(dir, 'full.db');
  let server: ServeProcess;

  before(async () => {
    const secrets = { HASH_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const common = { ...secrets, APP_ENV: 'development', DATABASE_URL: `sqlite:${path}`, DATA_DIR: dir };
    // A few MB of data first: the limit below also bounds the log, which must have room for the
    // test's writes. And a database with organizations gets no demo dataset loaded at start.
    const seeded = await runCli(['seed', '--meetings', '10'], common, 120_000);
    assert.equal(seeded.code, 0, seeded.stderr);
    server = await serveOnFreePort([MAIN, 'serve'], (port, base) => ({
      ...common, PORT: String(port), BASE_URL: base, OAUTH_REGISTER_PER_HOUR: '1000000', LOG_LEVEL: 'info', LOG_FORMAT: 'json',
    }));
  });
  after(() => {
    server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps answering, logs the failed checkpoint once, and catches up with nothing lost once the file can grow', async () => {
    // Everything written so far copied into the file (no reader holds the log): the file's size now
    // is all it may have.
    await registerClient(server.base);
    const probe = new DatabaseSync(path);
    let copied = { busy: 1, log: 0, checkpointed: 0 };
    // Busy while the worker checkpoints at the same moment: again.
    await waitUntil(() => (copied = probe.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as typeof copied).busy === 0 && copied.checkpointed === copied.log);
    probe.close();
    assert.deepEqual([copied.busy, copied.checkpointed], [0, copied.log], 'the log was copied whole');
    const full = statSync(path).size;
    limitFileSize(server.child.pid!, full);

    // ~2 KB of redirect URIs a client: ~80 KB of new pages past the end of the file; the log, which
    // now cannot start over, stays well under the limit (a few frames a commit).
    const uris = (n: number) => Array.from({ length: 8 }, (_, i) => `https://app.example/${n}/${i}/${'x'.repeat(240)}`);
    const registered = [];
    for (let n = 0; n < 40; n++) registered.push((await registerClient(server.base, { redirect_uris: uris(n) })).client_id);
    assert.ok(statSync(`${path}-wal`).size < full, `the log had room: ${statSync(`${path}-wal`).size} of ${full} bytes`);
    await waitUntil(() => logLines(server.output(), 'SQLite checkpoint failed').length > 0);
    const firstSeen = Date.now();
    const failed = logLines(server.output(), 'SQLite checkpoint failed');
    assert.equal(failed.length, 1, `one line for the first failure, not one per round:\n${server.output().slice(-2000)}`);
    assert.equal(failed[0]!.level, 40, 'a warning');
    // EFBIG, as the limit makes it, is SQLite's I/O error; ENOSPC, a full disk's, its "disk is full".
    assert.match(failed[0]!.sqliteError ?? '', /^(disk I\/O error|database or disk is full)$/);
    assert.equal(statSync(path).size <= full, true, 'the file did not grow');
    // Still failing every 50 ms, still one line: the next comes a minute on.
    await new Promise((r) => setTimeout(r, 500));
    const minutes = Math.floor((Date.now() - firstSeen) / FAILURE_REPORT_EVERY_MS);
    assert.ok(logLines(server.output(), 'SQLite checkpoint').length <= 1 + minutes, server.output().slice(-2000));
    assert.equal((await fetch(`${server.base}/readyz`)).status, 200);

    limitFileSize(server.child.pid!, 'unlimited');
    await waitUntil(() => logLines(server.output(), 'SQLite checkpoints succeed again').length > 0);
    const recovered = logLines(server.output(), 'SQLite checkpoints succeed again');
    assert.equal(recovered.length, 1, server.output().slice(-2000));
    assert.ok(recovered[0]!.failures! > 1, 'it counts the rounds that failed');
    assert.ok(statSync(path).size > full, 'the checkpoint copied the new pages into the file');

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.output().slice(-2000));
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const stored = db.prepare(`select count(*) as n from oauth_clients where client_id in (${registered.map(() => '?').join(',')})`).get(...registered) as { n: number };
      assert.equal(stored.n, registered.length, 'every registration answered 201 is stored');
      assert.equal((db.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    } finally {
      db.close();
    }
  });
});
