// Crash safety: the real server in a child process under a load of registrations, token issuance
// (authorize → code → exchange) and refreshes is killed with SIGKILL, then restarted on the same
// SQLite file. Every answer that was a 2xx is still in effect, the database passes
// PRAGMA integrity_check, and every refresh family still refreshes — none is left in a state that
// locks its user out (a refresh answered by the dead process is replayed within the grace window).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { MAIN } from '../support/cli.ts';
import { serveOnFreePort, startServe, type NodeProcess } from '../support/serve-process.ts';
import { authorizeCode, browserFor, exchangeCode, mcpRequest, refreshTokens, registerClient, type Client, type Tokens } from './support/oauth-flow.ts';
import { pkcePair } from '../support/pkce.ts';
import type { CookieJar } from '../support/cookie-jar.ts';

type Chain = { client: Client; tokens: Tokens; /** a refresh was in flight when the process died */ unknown: boolean };

describe('crash safety: kill -9 under load, then restart (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'aas-crash-'));
  const path = join(dir, 'crash.db');
  let env: Record<string, string>;
  let base: string;
  let server: NodeProcess | undefined;

  before(async () => {
    // On a port of its own (the restart below reuses it: the issuer is the base URL).
    const started = await serveOnFreePort([MAIN, 'serve'], (port, base) => (env = {
      APP_ENV: 'development', PORT: String(port), BASE_URL: base, DATABASE_URL: `sqlite:${path}`, DATA_DIR: dir,
      HASH_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      OAUTH_REGISTER_PER_HOUR: '1000000', OAUTH_REQUESTS_PER_MINUTE: '1000000', LOG_LEVEL: 'warn',
    }));
    ({ base } = started);
    server = started;
  });
  after(() => {
    server?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every 2xx in effect, an intact database and no locked-out refresh family', async () => {
    // A user who consented once, so each authorize answers at once with a code (remembered consent).
    const user = `crash-${randomBytes(3).toString('hex')}@crashtest-${randomBytes(2).toString('hex')}.example`;
    const jar: CookieJar = await browserFor(base, user);
    const app = await registerClient(base);
    const first = pkcePair();
    const seeded = await exchangeCode(base, app, (await authorizeCode(base, jar, app, first.challenge)).code, first.verifier);
    assert.equal(seeded.status, 200);

    const clients: Client[] = [];
    const chains: Chain[] = [{ client: app, tokens: (await seeded.json()) as Tokens, unknown: false }];
    let stop = false;
    let killed = false;
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const op = (n + i) % 3;
        try {
          if (op === 0) clients.push(await registerClient(base));
          else if (op === 1) {
            const p = pkcePair();
            const { code } = await authorizeCode(base, jar, app, p.challenge);
            const res = await exchangeCode(base, app, code, p.verifier);
            if (res.status === 200) chains.push({ client: app, tokens: (await res.json()) as Tokens, unknown: false });
          } else {
            const chain = chains[(n * 7 + i) % chains.length]!;
            if (chain.unknown) continue;
            chain.unknown = true;
            const res = await refreshTokens(base, chain.client, chain.tokens.refresh_token);
            if (res.status === 200) chain.tokens = (await res.json()) as Tokens;
            chain.unknown = false;
          }
        } catch (error) {
          // The process died mid-request: that request's outcome is unknown to the client. Before
          // the kill, a failure is a failure.
          if (!killed) throw error;
          if (stop) return;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, (_, n) => worker(n)));
    await new Promise((r) => setTimeout(r, 1500));
    killed = true;
    server!.child.kill('SIGKILL');
    await server!.exited;
    stop = true;
    await load;
    if (process.env.FUZZ_VERBOSE) console.log(`before the kill: ${clients.length} registrations, ${chains.length} token pairs, ${chains.filter((c) => c.unknown).length} refreshes in flight`);
    assert.ok(clients.length >= 10 && chains.length >= 5, `too little load before the kill: ${clients.length} registrations, ${chains.length} token pairs`);

    const db = new DatabaseSync(path);
    try {
      assert.deepEqual(db.prepare('PRAGMA integrity_check').all().map((r) => r.integrity_check), ['ok']);
    } finally {
      db.close();
    }

    server = await startServe([MAIN, 'serve'], env);
    // Every registration that answered 201 is still there.
    for (const c of clients) {
      const res = await fetch(`${base}/oauth/register/${c.client_id}`, { headers: { authorization: `Bearer ${c.registration_access_token}` } });
      assert.equal(res.status, 200, `client ${c.client_id} registered before the crash is gone`);
      await res.body?.cancel();
    }
    // Every token pair from a 200 works, and every family still refreshes (an answer lost with
    // the dead process is replayed within the grace window).
    // Access tokens are checked at /mcp on a sample (all one user's: the endpoint allows 120 calls
    // a minute per user); every family is refreshed.
    const sampled = new Set(chains.filter((_, i) => i % Math.ceil(chains.length / 40) === 0));
    for (const chain of chains) {
      if (!chain.unknown && sampled.has(chain)) {
        const before = await mcpRequest(base, chain.tokens.access_token, 'ping');
        assert.equal(before.status, 200, 'an access token issued before the crash no longer works');
        await before.body?.cancel();
      }
      const res = await refreshTokens(base, chain.client, chain.tokens.refresh_token);
      const body = (await res.json()) as Tokens & { error?: string };
      assert.equal(res.status, 200, `a refresh family is locked out after the crash (${chain.unknown ? 'refresh in flight at the kill' : 'idle'}): ${JSON.stringify(body)}`);
      if (!sampled.has(chain)) continue;
      const ping = await mcpRequest(base, body.access_token, 'ping');
      assert.equal(ping.status, 200);
      await ping.body?.cancel();
    }
  });
});
