// The bench's PostgreSQL datasets live on a server every checkout shares (database names are the
// server's): a run prunes and migrates only the databases its own data directory built, shares
// another directory's complete dataset of its key, leaves one being built alone, and rebuilds when
// its marker names a database that has gone. Real PostgreSQL, real seed and migrate commands; 11
// meetings, a size no workload asks for, so the bench's own datasets are never touched.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { dialectsUnderTest, POSTGRES_TEST_URL } from '../support/databases.ts';

// The module reads its server at import: the test server, whatever BENCH_POSTGRES_URL says.
process.env.BENCH_POSTGRES_URL = POSTGRES_TEST_URL;
const { ensureDataset } = await import('../../bench/lib/datasets.ts');
type Dataset = Awaited<ReturnType<typeof ensureDataset>>;

const BASE = 'bench_m11';
const REQUEST = { dialect: 'postgres', meetings: 11 } as const;

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

const databases = () =>
  admin(async (c) => (await c.query<{ datname: string; owner: string | null }>(
    `select datname, shobj_description(oid, 'pg_database') as owner from pg_database where starts_with(datname, 'bench_m11_') order by datname`,
  )).rows);

const comment = (name: string, text: string | null) => admin((c) => c.query(`comment on database ${name} is ${text === null ? 'null' : c.escapeLiteral(text)}`));

async function create(name: string, owner: string | null): Promise<void> {
  await admin((c) => c.query(`create database ${name}`));
  if (owner !== null) await comment(name, owner);
}

const drop = (name: string) => admin((c) => c.query(`drop database if exists ${name} with (force)`));
const rename = (from: string, to: string) => admin((c) => c.query(`alter database ${from} rename to ${to}`));
const dbName = (dataset: Dataset) => dataset.databaseUrl.split('/').pop()!;
const readMarker = (dir: string, key: string) => JSON.parse(readFileSync(join(dir, `${key}.postgres.json`), 'utf8')) as Record<string, unknown>;

describe('bench datasets on a shared PostgreSQL server', { skip: !dialectsUnderTest().includes('postgres') }, () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'aas-bench-data-')));
  const otherDir = realpathSync(mkdtempSync(join(tmpdir(), 'aas-bench-other-')));
  const ours = `agent-access bench dataset of ${dir}`;
  const theirs = `agent-access bench dataset of ${otherDir}`;
  const fixtures = ['0000000001', '0000000002', '0000000003', '0000000004', '0000000005', '00000000aa', '00000000bb'].map((k) => `${BASE}_${k}`);
  const log: string[] = [];
  const ensure = () => ensureDataset(dir, REQUEST, (line) => log.push(line));
  let built: Dataset;

  // Only this test's databases: another checkout's run of this test may share the server.
  const cleanup = async () => {
    for (const { datname, owner } of await databases()) if (fixtures.includes(datname) || owner === ours || owner === theirs) await drop(datname);
  };

  before(async () => {
    await cleanup();
    // Another checkout's dataset of another schema, and one from before databases were commented.
    await create(`${BASE}_0000000001`, theirs);
    await create(`${BASE}_0000000004`, null);
    // This directory's: an interrupted build (commented, no marker) and an uncommented one it has a
    // marker for, of a format that cannot be migrated forward.
    await create(`${BASE}_0000000002`, ours);
    await create(`${BASE}_0000000003`, null);
    writeFileSync(join(dir, 'm11-0000000003.postgres.json'), JSON.stringify({ format: 99 }));
    // Another checkout's, which this directory shares (its marker is here too).
    await create(`${BASE}_0000000005`, theirs);
    writeFileSync(join(dir, 'm11-0000000005.postgres.json'), JSON.stringify({ format: 99 }));
    built = await ensure();
  });

  after(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
  });

  it('should prune only the superseded databases this data directory owns, and name itself as the new one\'s owner', async () => {
    const left = await databases();
    assert.deepEqual(left.map((d) => d.datname), [`${BASE}_0000000001`, `${BASE}_0000000004`, `${BASE}_0000000005`, dbName(built)].sort());
    assert.equal(left.find((d) => d.datname === dbName(built))?.owner, ours);
    assert.equal(existsSync(join(dir, 'm11-0000000003.postgres.json')), false);
  });

  it('should report a build\'s progress through the run\'s log (what --quiet silences), line by line', () => {
    assert.ok(log.some((line) => /^ {4}meetings \[[#-]{30}\] [\d,]+\/[\d,]+ /.test(line)), log.join('\n'));
  });

  it('should record the migrations in the marker and read the built dataset back from it', async () => {
    const marker = readMarker(dir, built.key) as { migrations: [string, string][] };
    assert.ok(marker.migrations.some(([name]) => name.startsWith('0001-')));
    assert.equal((await ensure()).info.builtAt, built.info.builtAt);
  });

  it('should build afresh when the marker names a database the server no longer has', async () => {
    await drop(dbName(built));
    const rebuilt = await ensure();
    assert.notEqual(rebuilt.info.builtAt, built.info.builtAt);
    assert.ok((await databases()).some((d) => d.datname === dbName(built)));
    assert.ok(log.some((line) => line.includes('no longer has')));
    built = rebuilt;
  });

  it('should migrate forward a dataset of an older key that it built before databases were commented, and claim it', async () => {
    await rename(dbName(built), `${BASE}_00000000aa`);
    await comment(`${BASE}_00000000aa`, null);
    renameSync(join(dir, `${built.key}.postgres.json`), join(dir, 'm11-00000000aa.postgres.json'));
    const migrated = await ensure();
    assert.equal(migrated.info.migratedFrom, 'm11-00000000aa');
    assert.equal(migrated.info.builtAt, built.info.builtAt);
    const left = await databases();
    assert.equal(left.find((d) => d.datname === dbName(built))?.owner, ours);
    assert.ok(!left.some((d) => d.datname === `${BASE}_00000000aa`));
  });

  it('should leave another directory\'s database of an older key alone, even with a marker for it here', async () => {
    await rename(dbName(built), `${BASE}_00000000bb`);
    await comment(`${BASE}_00000000bb`, theirs);
    renameSync(join(dir, `${built.key}.postgres.json`), join(dir, 'm11-00000000bb.postgres.json'));
    const rebuilt = await ensure();
    assert.equal(rebuilt.info.migratedFrom, undefined);
    assert.notEqual(rebuilt.info.builtAt, built.info.builtAt);
    const left = await databases();
    assert.equal(left.find((d) => d.datname === `${BASE}_00000000bb`)?.owner, theirs);
    assert.equal(left.find((d) => d.datname === dbName(rebuilt))?.owner, ours);
    built = rebuilt;
  });

  it('should share another directory\'s complete dataset of its key, and leave one still being built there alone', async () => {
    // The dataset becomes the other directory's, as if it had built it.
    await comment(dbName(built), theirs);
    renameSync(join(dir, `${built.key}.postgres.json`), join(otherDir, `${built.key}.postgres.json`));
    const shared = await ensure();
    assert.equal(shared.info.builtAt, built.info.builtAt);
    assert.equal(readMarker(dir, built.key).sharedFrom, otherDir);
    // Without a marker there, the other directory is still building it.
    rmSync(join(dir, `${built.key}.postgres.json`));
    rmSync(join(otherDir, `${built.key}.postgres.json`));
    await assert.rejects(ensure(), /being built by the bench data directory/);
    assert.equal((await databases()).find((d) => d.datname === dbName(built))?.owner, theirs);
  });
});
