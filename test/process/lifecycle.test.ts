// The service as an operator runs it: a real process, started, probed and stopped by signal; and
// the embedded database under several processes and a kill -9.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { createServer } from 'node:net';
import { MAIN } from '../support/cli.ts';
import { createTestDatabase, dialectsUnderTest } from '../support/databases.ts';
import { onFreePort } from '../support/service.ts';
import { serveOnFreePort, startNode } from '../support/serve-process.ts';
import { migrations } from '../../src/store/migrations/index.ts';
import { startArgs } from '../../bench/lib/service.ts';

const WRITER = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));
const RECORD_PACKAGES = fileURLToPath(new URL('./fixtures/record-packages.ts', import.meta.url));
const RECORD_BUILTINS = fileURLToPath(new URL('./fixtures/record-builtins.mjs', import.meta.url));
/** Node's type stripper (swc compiled to WebAssembly), as process.moduleLoadList names it. */
const TYPE_STRIPPER = 'NativeModule internal/deps/amaro/dist/index';

async function waitFor(url: string, deadlineMs: number): Promise<Response> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function lines(child: ChildProcessWithoutNullStreams, count: number): Promise<string[]> {
  const got: string[] = [];
  let buffer = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      got.push(...parts);
      if (got.length >= count) resolve(got);
    });
    child.on('close', () => resolve(got));
  });
}

describe('the service process', () => {
  for (const dialect of dialectsUnderTest()) {
    it(`should serve /healthz on ${dialect}, then stop cleanly on SIGTERM`, async () => {
      const database = await createTestDatabase(dialect);
      const proc = await serveOnFreePort([MAIN, 'serve'], (port, base) => ({ PORT: String(port), BASE_URL: base, DATABASE_URL: database.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'aas-p-')) }));
      const { port } = proc;
      try {
        // Generous deadline on a shared machine; the 5 s is what `npm start` shows an operator.
        const res = await waitFor(`http://127.0.0.1:${port}/healthz`, 20_000);
        assert.equal(res.status, 200);
        assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
        proc.child.kill('SIGTERM');
        assert.equal(await proc.exited, 0, proc.output());
        assert.match(proc.output(), /"msg":"stopped"/);
        assert.match(proc.output(), new RegExp(`MCP endpoint\\s+http://localhost:${port}/mcp`));
      } finally {
        proc.child.kill('SIGKILL');
        await database.drop();
      }
    });
  }

  // Production never runs the demo identity provider; its packages (oidc-provider, Koa) cost
  // ~15 MB of RSS and ~50 ms of start, so they are loaded only when DEMO_IDP is on.
  for (const demoIdp of ['false', 'true'] as const) {
    it(`should ${demoIdp === 'true' ? '' : 'not '}load oidc-provider when DEMO_IDP=${demoIdp}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aas-p-'));
      const record = join(dir, 'packages.txt');
      const proc = await serveOnFreePort(['--import', RECORD_PACKAGES, MAIN, 'serve'], (port) => ({ PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, DATA_DIR: dir, DEMO_IDP: demoIdp, RECORD_PACKAGES_TO: record }));
      const { port } = proc;
      try {
        assert.equal((await waitFor(`http://127.0.0.1:${port}/readyz`, 20_000)).status, 200);
        proc.child.kill('SIGTERM');
        assert.equal(await proc.exited, 0, proc.output());
        const loaded = readFileSync(record, 'utf8').split('\n');
        assert.ok(loaded.includes('hono'), `the recorder saw the service's packages: ${loaded.join(' ')}`);
        for (const name of ['oidc-provider', 'koa']) assert.equal(loaded.includes(name), demoIdp === 'true', `${name} loaded: ${loaded.join(' ')}`);
      } finally {
        proc.child.kill('SIGKILL');
      }
    });
  }

  // `npm start` enters at a JavaScript file that turns the compile cache on before any TypeScript
  // loads, and `serve` writes the cache once it listens: a restart, even after a kill -9, strips
  // no types and never loads the stripper (~16 MB of RSS). Its cache lives under TMPDIR, a fresh
  // one per case here; the cold start is the control that the probe sees the stripper at all.
  it('should not load the type stripper on a restart from a warm compile cache, even after a kill -9', async () => {
    const start = async (dir: string, stop: 'SIGTERM' | 'SIGKILL'): Promise<boolean | undefined> => {
      const record = join(dir, 'builtins.txt');
      const proc = await serveOnFreePort(startArgs(['serve'], ['--import', RECORD_BUILTINS]), (port) => ({ PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, DATA_DIR: dir, TMPDIR: join(dir, 'tmp'), DEMO_IDP: 'false', RECORD_BUILTINS_TO: record }));
      try {
        assert.equal((await waitFor(`http://127.0.0.1:${proc.port}/readyz`, 20_000)).status, 200);
        proc.child.kill(stop);
        const code = await proc.exited;
        if (stop === 'SIGKILL') return undefined;
        assert.equal(code, 0, proc.output());
        return readFileSync(record, 'utf8').split('\n').includes(TYPE_STRIPPER);
      } finally {
        proc.child.kill('SIGKILL');
      }
    };
    const fresh = () => {
      const dir = mkdtempSync(join(tmpdir(), 'aas-c-'));
      mkdirSync(join(dir, 'tmp'));
      return dir;
    };
    assert.equal(await start(fresh(), 'SIGTERM'), true, 'a cold start strips types');
    const warm = fresh();
    await start(warm, 'SIGKILL');
    assert.equal(await start(warm, 'SIGTERM'), false, 'the restart found every module in the cache the killed start wrote');
  });

  it('should exit 1 with what to do when its port is taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-p-'));
    const holder = createServer();
    const port = await onFreePort((port) => new Promise<number>((resolve, reject) => {
      holder.once('error', reject);
      holder.listen(port, '127.0.0.1', () => resolve(port));
    }));
    const proc = startNode([MAIN, 'serve'], { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, DATA_DIR: dir });
    try {
      assert.equal(await proc.exited, 1, proc.output());
      assert.match(proc.output(), new RegExp(`EADDRINUSE.*another process is listening on port ${port}: stop it, or set PORT`));
      assert.doesNotMatch(proc.output(), /is running|\n\s+at /, 'no banner and no stack trace');
    } finally {
      proc.child.kill('SIGKILL');
      holder.close();
    }
  });

  it('should create the SQLite file and stop on SIGINT (Ctrl-C)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-p-'));
    const proc = await serveOnFreePort([MAIN, 'serve'], (port) => ({ PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'sub', 'x.db')}`, DATA_DIR: dir }));
    const { port } = proc;
    try {
      assert.equal((await waitFor(`http://127.0.0.1:${port}/healthz`, 20_000)).status, 200);
      const db = new DatabaseSync(join(dir, 'sub', 'x.db'));
      assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
      db.close();
      proc.child.kill('SIGINT');
      assert.equal(await proc.exited, 0, proc.output());
    } finally {
      proc.child.kill('SIGKILL');
    }
  });
});

describe('migrations at start', () => {
  it('should say which migrations it applies before it listens, and nothing when there are none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aas-m-'));
    const env = (port: number) => ({ PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'x.db')}`, DATA_DIR: dir });
    const total = Object.keys(migrations).length;
    for (const expected of [total, 0]) {
      const proc = await serveOnFreePort([MAIN, 'serve'], env);
      try {
        assert.equal((await waitFor(`http://127.0.0.1:${proc.port}/healthz`, 20_000)).status, 200);
        const out = proc.output();
        if (expected > 0) {
          assert.match(out, /applying database migrations before listening/);
          assert.match(out, new RegExp(`"pending":${total}\\b|pending: ${total}\\b`));
          assert.match(out, new RegExp(`"applied":${total},.*database migrations applied`));
          assert.ok(out.indexOf('applying database migrations') < out.indexOf('database migrations applied'), out);
        } else {
          assert.doesNotMatch(out, /applying database migrations|database migrations applied/);
        }
        proc.child.kill('SIGTERM');
        assert.equal(await proc.exited, 0, out);
      } finally {
        proc.child.kill('SIGKILL');
      }
    }
  });
});

describe('the embedded database under several processes', () => {
  it('should keep one SQLite file intact when two processes migrate and write at once', async () => {
    const database = await createTestDatabase('sqlite');
    const writers = ['a', 'b'].map((tag) => startNode([WRITER, database.url, '150', tag], {}));
    const codes = await Promise.all(writers.map((w) => w.exited));
    assert.deepEqual(codes, [0, 0], writers.map((w) => w.output()).join('\n'));
    const db = new DatabaseSync(database.config.kind === 'sqlite' ? database.config.path : '');
    assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    assert.equal((db.prepare('select count(*) as n from organizations').get() as { n: number }).n, 300);
    db.close();
    await database.drop();
  });

  it('should lose nothing that was committed when a writer is killed with -9', async () => {
    const database = await createTestDatabase('sqlite');
    const proc = startNode([WRITER, database.url, '100000', 'k'], {});
    const committed = await lines(proc.child, 201);
    proc.child.kill('SIGKILL');
    await proc.exited;
    const ids = committed.filter((l) => l.startsWith('org_'));
    assert.ok(ids.length >= 200, `writer printed only ${ids.length} ids: ${proc.output()}`);
    const db = new DatabaseSync(database.config.kind === 'sqlite' ? database.config.path : '');
    assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    const present = db.prepare('select id from organizations where id = ?');
    const missing = ids.filter((id) => !present.get(id));
    assert.deepEqual(missing, []);
    db.close();
    await database.drop();
  });
});
