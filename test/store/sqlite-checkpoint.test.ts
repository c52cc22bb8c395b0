// SQLite's log is folded back into the database file by a worker thread (sqlite-checkpointer.ts),
// not by the commit that fills it; the worker starts only once something is written; under
// continuous writes the serving connection still starts the log over at WAL_CAP_PAGES; and a closed
// store leaves no log behind (the worker's connection is closed too: the last connection to close
// removes the log).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseSync } from 'node:sqlite';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/database.ts';
import { applyPragmas, WAL_AUTOCHECKPOINT_PAGES, WAL_CAP_PAGES } from '../../src/store/sqlite.ts';
import { startCheckpointer, WRITE_POLL_MS, type Checkpointer } from '../../src/store/sqlite-checkpointer.ts';
import { waitUntil } from '../support/wait-until.ts';

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** A path the checkpoint worker cannot open as a database (a directory), whose log looks written. */
function unopenablePath(dir: string): string {
  const path = join(dir, 'not-a-database');
  mkdirSync(path);
  writeFileSync(`${path}-wal`, 'x');
  return path;
}

/** One commit that writes about `pages` pages: rows of one page's worth of random bytes. */
const writePages = (store: Store, pages: number) =>
  sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${pages}) insert into filler (body) select randomblob(3800) from n`.execute(store.db);

describe('SQLite checkpoints off the serving thread', () => {
  let dir: string;
  let path: string;
  let store: Store;
  let pageSize: number;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aas-ckpt-'));
    path = join(dir, 'x.db');
    store = openStore({ kind: 'sqlite', path });
    await sql`create table filler (id integer primary key, body blob not null)`.execute(store.db);
    pageSize = (await sql<{ page_size: number }>`pragma page_size`.execute(store.db)).rows[0]!.page_size;
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages into the database file while the serving connection never checkpoints', async () => {
    // Fewer pages than the in-line checkpoint would ever wait for: only another connection copies them.
    const pages = Math.floor(WAL_AUTOCHECKPOINT_PAGES / 2);
    const before = size(path);
    await writePages(store, pages);
    assert.ok(size(`${path}-wal`) >= pages * pageSize, 'the commit went to the log');
    await waitUntil(() => size(path) >= before + pages * pageSize);
    assert.ok(size(path) >= before + pages * pageSize, `the database file holds the commit: ${size(path)} bytes, the log ${size(`${path}-wal`)}`);
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(store.db);
    assert.equal(rows[0]!.n, pages);
  });

  it('starts the log over under continuous writes: it never grows far past the cap', async () => {
    let largest = 0;
    // Twice the cap, a commit after another with no pause for the worker to catch up.
    for (let written = 0; written < 2 * WAL_CAP_PAGES; written += 500) {
      await writePages(store, 500);
      largest = Math.max(largest, size(`${path}-wal`));
      await sql`delete from filler where id in (select id from filler order by id limit 500)`.execute(store.db);
    }
    const capBytes = WAL_CAP_PAGES * pageSize;
    assert.ok(largest < 1.25 * capBytes, `the log reached ${(largest / capBytes).toFixed(2)}x the cap`);
  });
});

describe('the checkpoint worker', () => {
  it('starts once the log holds a write, checkpoints in line only at the cap while it runs, and stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-ckpt-'));
    const path = join(dir, 'x.db');
    const db = new DatabaseSync(path);
    let checkpointer: Checkpointer | undefined;
    try {
      applyPragmas(db);
      db.exec('create table filler (id integer primary key, body blob not null)');
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const inLinePages = () => (db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
      checkpointer = startCheckpointer(path, db);
      // Reads only, for a few polls: nothing to copy, no worker.
      db.prepare('select count(*) from filler').get();
      await sleep(2.5 * WRITE_POLL_MS);
      assert.equal(checkpointer.running, false, 'no worker before anything is written');
      assert.equal(inLinePages(), WAL_AUTOCHECKPOINT_PAGES);
      db.exec('insert into filler (body) values (randomblob(100))');
      await waitUntil(() => inLinePages() === WAL_CAP_PAGES);
      assert.equal(checkpointer.running, true, 'the worker runs after a write');
      assert.equal(inLinePages(), WAL_CAP_PAGES, 'the serving connection checkpoints in line only at the cap');
      await checkpointer.stop();
      assert.equal(checkpointer.running, false);
      assert.equal(inLinePages(), WAL_AUTOCHECKPOINT_PAGES, 'in line again once the worker has stopped');
    } finally {
      await checkpointer?.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells the log when its worker cannot open the database, and the serving connection checkpoints in line again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-ckpt-'));
    const db = new DatabaseSync(join(dir, 'x.db'));
    const path = unopenablePath(dir);
    const warnings: { details: object; message: string }[] = [];
    const log = { warn: (details: object, message: string) => warnings.push({ details, message }), info: () => {} };
    let checkpointer: Checkpointer | undefined;
    try {
      applyPragmas(db);
      const inLinePages = () => (db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
      checkpointer = startCheckpointer(path, db, log);
      await waitUntil(() => warnings.length > 0);
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.match(warnings[0]!.message, /checkpoint worker stopped: the serving connection checkpoints in line/);
      assert.match(JSON.stringify(warnings[0]!.details), /unable to open database file/);
      assert.equal(checkpointer.running, false);
      assert.equal(inLinePages(), WAL_AUTOCHECKPOINT_PAGES);
      await checkpointer.stop();
      assert.equal(warnings.length, 1, 'stopping it says nothing more');
    } finally {
      await checkpointer?.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not keep a process alive that never stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-ckpt-'));
    const script = `
      import { DatabaseSync } from 'node:sqlite';
      import { applyPragmas } from ${JSON.stringify(new URL('../../src/store/sqlite.ts', import.meta.url).href)};
      import { startCheckpointer } from ${JSON.stringify(new URL('../../src/store/sqlite-checkpointer.ts', import.meta.url).href)};
      const path = ${JSON.stringify(join(dir, 'x.db'))};
      const db = new DatabaseSync(path);
      applyPragmas(db);
      db.exec('create table t (x); insert into t values (1)');
      const checkpointer = startCheckpointer(path, db, { warn: console.error, info: console.error });
      const poll = setInterval(() => {
        if (!checkpointer.running) return;
        clearInterval(poll);
        console.log('worker running');
      }, 50);`;
    try {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.stdout.trim(), 'worker running', run.stderr);
      assert.equal(run.signal, null, 'it exited on its own, not killed at the timeout');
      assert.equal(run.status, 0, run.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("prints the same reports on a command's stderr, where there is no service log", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-ckpt-'));
    const path = unopenablePath(dir);
    const script = `
      import { DatabaseSync } from 'node:sqlite';
      import { commandStoreLog } from ${JSON.stringify(new URL('../../src/cli/admin-common.ts', import.meta.url).href)};
      import { startCheckpointer } from ${JSON.stringify(new URL('../../src/store/sqlite-checkpointer.ts', import.meta.url).href)};
      const db = new DatabaseSync(${JSON.stringify(join(dir, 'x.db'))});
      const path = ${JSON.stringify(path)};
      // Held open until the first report (or 20 s): the checkpointer's own timers do not hold it.
      const deadline = setTimeout(() => {}, 20_000);
      startCheckpointer(path, db, { ...commandStoreLog, warn: (details, message) => (commandStoreLog.warn(details, message), clearTimeout(deadline)) });`;
    try {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stderr, /^agent-access: SQLite checkpoint worker stopped: the serving connection checkpoints in line from now on \(unable to open database file\)$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('closing a SQLite store', () => {
  it('leaves no log or shared index behind, though its worker had a connection open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-ckpt-'));
    try {
      const path = join(dir, 'x.db');
      const store = openStore({ kind: 'sqlite', path });
      await sql`create table filler (id integer primary key, body blob not null)`.execute(store.db);
      await writePages(store, 100);
      // Once the worker has copied the pages it has a connection open.
      await waitUntil(() => size(path) >= 100 * 3800);
      assert.ok(size(path) >= 100 * 3800, 'the worker copied the pages');
      assert.ok(existsSync(`${path}-wal`));
      await store.close();
      assert.equal(existsSync(`${path}-wal`), false, 'no log after close');
      assert.equal(existsSync(`${path}-shm`), false, 'no shared index after close');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
