// An in-process service for authorization-server tests: a migrated store on a fresh database of
// the given dialect, the real app, requests through app.request() (no socket).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig, type DatabaseConfig } from '../../src/config/load.ts';
import { createApp } from '../../src/http/app.ts';
import type { AppContext } from '../../src/http/context.ts';
import { memoryLimits } from '../../src/limits/memory.ts';
import type { Dialect } from '../../src/store/database.ts';
import { openTestStore } from '../support/databases.ts';
import { createOrganization } from '../../src/store/organizations.ts';
import { createUser, type Role } from '../../src/store/users.ts';
import { createSession } from '../../src/identity/sessions.ts';
import { createBrowserIdentity } from '../../src/identity/index.ts';
import { pkcePair } from '../support/pkce.ts';
import { consentForm } from '../support/consent-form.ts';

export const BASE_URL = 'https://agents.example.test';

export type Harness = {
  ctx: AppContext;
  /** The test database as a DATABASE_URL, for the CLI in a child process. */
  databaseUrl: string;
  /** The same database as a store configuration, for another connection to it (another instance). */
  databaseConfig: DatabaseConfig;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
};

export async function startHarness(dialect: Dialect = 'sqlite', env: Record<string, string> = {}): Promise<Harness> {
  const { store, database, cleanup } = await openTestStore(dialect);
  const config = loadConfig({
    APP_ENV: 'development',
    BASE_URL,
    DATABASE_URL: 'sqlite::memory:',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'aas-oauth-')),
    HASH_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    ...env,
  });
  const ctx: AppContext = { config, store, limits: memoryLimits(), logger: pino({ level: 'silent' }) };
  const app = await createApp(ctx);
  return {
    ctx,
    databaseUrl: database.url,
    databaseConfig: database.config,
    request: async (path, init) => app.request(path.startsWith('http') ? path : `${BASE_URL}${path}`, init),
    close: cleanup,
  };
}

export const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

export const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

// ---- people, browsers and clients -----------------------------------------------------------


export type Browser = { userId: string; orgId: string; email: string; cookie: string; get(path: string): Promise<Response>; post(path: string, fields: Record<string, string>): Promise<Response> };

let orgCounter = 0;

/** A real organization, user and identity session; the browser sends its session cookie. */
export async function signedInBrowser(h: Harness, options: { role?: Role; orgId?: string } = {}): Promise<Browser> {
  const db = h.ctx.store.db;
  orgCounter += 1;
  const orgId =
    options.orgId ??
    (await createOrganization(db, { name: `Org ${orgCounter}`, domains: [`org${orgCounter}-${randomBytes(3).toString('hex')}.example`], license: { plan: 'paid', trialEndsAt: null, seats: 10 } })).id;
  const email = `u${randomBytes(4).toString('hex')}@example.com`;
  const user = await createUser(db, { orgId, email, name: 'Test User', role: options.role ?? 'member' });
  const session = await createSession(db, h.ctx.config.secrets.hash, user, 'https://demo-idp.invalid');
  const cookie = `${createBrowserIdentity(h.ctx).cookies.names.session}=${session.id}`;
  return {
    userId: user.id,
    orgId,
    email,
    cookie,
    get: (path) => h.request(path, { headers: { cookie }, redirect: 'manual' }),
    post: (path, fields) => h.request(path, { ...form(fields), headers: { ...form(fields).headers, cookie } }),
  };
}

/** The shared PKCE pair, under the name the authorization-server suites import from here. */
export const pkce = pkcePair;

export type RegisteredClient = { client_id: string; client_secret?: string; registration_access_token: string; redirect_uris: string[] };

export async function registerClient(h: Harness, metadata: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const res = await h.request('/oauth/register', json({ client_name: 'Test client', redirect_uris: ['https://client.example/cb'], token_endpoint_auth_method: 'none', ...metadata }));
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as RegisteredClient;
}

export const authorizeUrl = (client: RegisteredClient, challenge: string, extra: Record<string, string> = {}) =>
  `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: client.redirect_uris[0] ?? '', code_challenge: challenge, code_challenge_method: 'S256', state: 'st-1', scope: 'mcp', ...extra })}`;

/** The hidden fields of the consent form on a page (shared with the HTTP-level suites). */
export { consentForm };

/** Through authorize and consent to a code (approving), for a signed-in browser. */
export async function authorizeAndApprove(h: Harness, browser: Browser, client: RegisteredClient, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const page = await browser.get(authorizeUrl(client, challenge, extra));
  let location = page.headers.get('location');
  if (page.status === 200) {
    const res = await browser.post('/oauth/consent', { ...consentForm(await page.text()), decision: 'approve' });
    if (res.status !== 303) throw new Error(`consent failed: ${res.status} ${await res.text()}`);
    location = res.headers.get('location');
  }
  if (!location) throw new Error(`authorize answered ${page.status}`);
  const url = new URL(location);
  const code = url.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return { code, verifier, redirect: url };
}

export async function exchange(h: Harness, client: RegisteredClient, code: string, verifier: string, extra: Record<string, string> = {}) {
  return h.request('/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: client.redirect_uris[0] ?? '', ...extra }));
}

export const REFUSAL = 'write refused by the database';

/**
 * A real database fault: the database itself refuses `op` on `table` (a trigger installed over a
 * separate connection, as a newer release's schema or an operator's policy could), so the service
 * meets an error it does not classify. Returns what lifts the refusal.
 */
export async function refuseWrites(h: Harness, table: string, op: 'INSERT' | 'UPDATE' | 'DELETE'): Promise<() => Promise<void>> {
  const name = `refuse_${table}_${op.toLowerCase()}`;
  const sqlite = h.databaseUrl.startsWith('sqlite:');
  await outsideConnection(h, [
    sqlite
      ? `CREATE TRIGGER ${name} BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, '${REFUSAL}'); END`
      : `CREATE OR REPLACE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${REFUSAL}'; END $$`,
    ...(sqlite ? [] : [`CREATE TRIGGER ${name} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_write()`]),
  ]);
  return () => outsideConnection(h, [`DROP TRIGGER ${name}${sqlite ? '' : ` ON ${table}`}`]);
}

/** Runs statements on the test database over a connection of its own (not the service's). */
async function outsideConnection(h: Harness, statements: string[]): Promise<void> {
  if (h.databaseUrl.startsWith('sqlite:')) {
    const db = new DatabaseSync(h.databaseUrl.slice('sqlite:'.length), { timeout: 5000 });
    try {
      for (const statement of statements) db.exec(statement);
    } finally {
      db.close();
    }
    return;
  }
  const db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
  try {
    for (const statement of statements) await db.query(statement);
  } finally {
    await db.end();
  }
}
