// A throwaway PostgreSQL cluster and Redis server of the test's own, on free loopback ports, that
// the test may stop and start at will (the machine's shared ones are never touched).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/service.ts';

function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const version = readdirSync(root).sort().at(-1);
  const path = join(root, version ?? '', 'bin', name);
  if (!existsSync(path)) throw new Error(`${name} not found under ${root}`);
  return path;
}

/** Runs a PostgreSQL tool as the postgres user when we are root (initdb refuses root). */
function asPostgres(tool: string, args: string[]): string {
  const isRoot = process.getuid?.() === 0;
  const cmd = isRoot ? 'runuser' : pgBin(tool);
  const argv = isRoot ? ['-u', 'postgres', '--', pgBin(tool), ...args] : args;
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

export type OwnPostgres = { url: string; port: number; stop(): void; start(): void; destroy(): void };

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'aas-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    chownSync(dir, uidOf('postgres'), gidOf('postgres'));
    chmodSync(dir, 0o700);
  }
  const port = await freePort();
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const start = () => {
    asPostgres('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  };
  const stop = () => {
    asPostgres('pg_ctl', ['-D', data, '-w', '-t', '30', '-m', 'fast', 'stop']);
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}
function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

export type OwnRedis = { url: string; stop(): Promise<void>; start(): Promise<void> };

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        if (execFileSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).trim() === 'PONG') return;
      } catch {
        // not up yet
      }
    }
    throw new Error('redis-server did not start');
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}
