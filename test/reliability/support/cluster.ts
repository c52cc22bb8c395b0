// Several instances of the service on one database (and optionally one Redis) behind a small
// round-robin reverse proxy written for the tests. The proxy is the only public address (every
// instance's BASE_URL), appends X-Forwarded-For (instances trust it), and can be told which
// instance to use with `x-test-instance: N` (stripped). The demo identity provider keeps its
// interactions in each process's memory — it stands in for Google, an outside service — so
// /demo-idp/* always goes to instance 0.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config/load.ts';
import type { Logger } from '../../../src/log.ts';
import { startService, type RunningService } from '../../../src/server.ts';
import { onFreePort } from '../../support/service.ts';

export type Proxy = { url: string; port: number; hits: number[]; close(): Promise<void> };

export async function startProxy(backends: () => string[], options: { clientAddress?: string } = {}): Promise<Proxy> {
  const hits: number[] = [];
  let next = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const targets = backends();
    const pinned = req.headers['x-test-instance'];
    const index = req.url?.startsWith('/demo-idp/') ? 0 : pinned !== undefined ? Number(pinned) % targets.length : next++ % targets.length;
    hits[index] = (hits[index] ?? 0) + 1;
    const target = new URL(targets[index]!);
    const headers = { ...req.headers };
    delete headers['x-test-instance'];
    const peer = options.clientAddress ?? req.socket.remoteAddress ?? '127.0.0.1';
    headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${peer}` : peer;
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  const port = await onFreePort((port) => new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(port);
    });
  }));
  return {
    url: `http://localhost:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export type Instance = RunningService & { direct: string };

export type ClusterOptions = { databaseUrl: string; redisUrl?: string; env?: Record<string, string>; logger?: Logger; clientAddress?: string; size?: number };

export type Cluster = { proxy: Proxy; instances: Instance[]; env: Record<string, string>; close(): Promise<void> };

/** `size` instances (default 2) sharing one database, secrets and Redis, behind one proxy. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const instances: Instance[] = [];
  const proxy = await startProxy(() => instances.map((i) => i.direct), { clientAddress: options.clientAddress });
  const env: Record<string, string> = {
    APP_ENV: 'development',
    HOST: '127.0.0.1',
    BASE_URL: proxy.url,
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'aas-cluster-')),
    HASH_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TRUSTED_PROXIES: '127.0.0.1, ::1',
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...options.env,
  };
  for (let i = 0; i < (options.size ?? 2); i++) {
    instances.push(await onFreePort(async (port) => ({
      ...(await startService(loadConfig({ ...env, PORT: String(port) }), options.logger ?? pino({ level: 'silent' }))),
      direct: `http://127.0.0.1:${port}`,
    })));
  }
  return {
    proxy,
    instances,
    env,
    close: async () => {
      await proxy.close();
      await Promise.allSettled(instances.map((i) => i.stop('test finished')));
    },
  };
}
