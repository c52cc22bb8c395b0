// The bench's PostgreSQL datasets live on a server every checkout shares (database names are the
// server's): a run prunes only the databases its own data directory built, and a marker whose
// database is gone is rebuilt rather than trusted. Real PostgreSQL, real seed; 11 meetings, a size
// no workload asks for, so the bench's own datasets are never touched.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDataset, POSTGRES_URL, type Dataset } from '../../bench/lib/datasets.ts';

const BASE = 'bench_m11';
const REQUEST = { dialect: 'postgres', meetings: 11 } as const;

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: POSTGRES_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

const databases = () => admin(async (c) => (await c.query<{ datname: string; owner: string | null }>(
  `select datname, shobj_description(oid, 'pg_database') as owner from pg_database where datname like 'bench\\_m11\\_%' order by datname`,
)).rows);

async function create(name: string, comment?: string): Promise<void> {
  await admin(async (c) => {
    await c.query(`create database ${name}`);
    if (comment !== undefined) await c.query(`comment on database ${name} is ${c.escapeLiteral(comment)}`);
  });
}

const dropAll = async () => {
  for (const { datname } of await databases()) await admin((c) => c.query(`drop database if exists ${datname} with (force)`));
};

describe('bench datasets on a shared PostgreSQL server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aas-bench-data-'));
  const otherDir = mkdtempSync(join(tmpdir(), 'aas-bench-other-'));
  const log: string[] = [];
  let built: Dataset;

  before(async () => {
    await dropAll();
    // Another checkout's dataset of another schema, and one from before databases were commented.
    await create(`${BASE}_0000000001`, `agent-access bench dataset of ${otherDir}`);
    await create(`${BASE}_0000000004`);
    // This directory's: an interrupted build (commented, no marker) and an uncommented one it has a
    // marker for, of a format that cannot be migrated forward.
    await create(`${BASE}_0000000002`, `agent-access bench dataset of ${dir}`);
    await create(`${BASE}_0000000003`);
    writeFileSync(join(dir, 'm11-0000000003.postgres.json'), JSON.stringify({ format: 99 }));
    built = await ensureDataset(dir, REQUEST, (line) => log.push(line));
  });

  after(async () => {
    await dropAll();
    rmSync(dir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
  });

  it('should prune only the superseded databases this data directory owns, and name itself as the new one\'s owner', async () => {
    const names = (await databases()).map((d) => d.datname);
    assert.deepEqual(names, [`${BASE}_0000000001`, `${BASE}_0000000004`, built.databaseUrl.split('/').pop()].sort());
    assert.equal((await databases()).find((d) => built.databaseUrl.endsWith(`/${d.datname}`))?.owner, `agent-access bench dataset of ${dir}`);
    assert.equal(existsSync(join(dir, 'm11-0000000003.postgres.json')), false);
  });

  it('should record the migrations in the marker and read the built dataset back from it', async () => {
    const marker = JSON.parse(readFileSync(join(dir, `${built.key}.postgres.json`), 'utf8')) as { migrations: [string, string][] };
    assert.ok(marker.migrations.some(([name]) => name.startsWith('0001-')));
    const again = await ensureDataset(dir, REQUEST, (line) => log.push(line));
    assert.equal(again.info.builtAt, built.info.builtAt);
  });

  it('should build afresh when the marker names a database the server no longer has', async () => {
    const name = built.databaseUrl.split('/').pop()!;
    await admin((c) => c.query(`drop database ${name} with (force)`));
    const rebuilt = await ensureDataset(dir, REQUEST, (line) => log.push(line));
    assert.notEqual(rebuilt.info.builtAt, built.info.builtAt);
    assert.ok((await databases()).some((d) => d.datname === name));
    assert.ok(log.some((line) => line.includes('no longer has')));
  });
});
