// mcp-remote 0.15.1, the stdio bridge desktop apps use, completing its own OAuth flow headlessly:
// an MCP client speaks stdio to it; it gets the 401, discovers, registers, and "opens a browser"
// (BROWSER points at a script that only records the URL; the URL is read from its log). We sign in
// and approve over HTTP and send the redirect to mcp-remote's own callback server; then tools/list
// and tools/call go through the bridge. A later start with an expired token makes it refresh by
// itself; after the grant is revoked, the next start asks for authorization again. It is started
// with the arguments of the published mcp-remote snippet (src/site/snippets.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTokenVerifier } from '../../src/auth-server/index.ts';
import { CACHE_MS } from '../../src/auth-server/verify.ts';
import { clientSnippets, SERVER_NAME } from '../../src/site/snippets.ts';
import { freePort, startTestService, type TestService } from '../support/service.ts';
import { approveHeadless, mcpStatus, revoke } from './support/headless.ts';

const PROXY = join(dirname(createRequire(import.meta.url).resolve('mcp-remote/package.json')), 'dist/proxy.js');

/** Collects a child's stderr (always drained, so the child never blocks on a full pipe) and finds what mcp-remote prints: its authorization URL, its callback server listening. */
function stderrWatcher(stream: { on(event: 'data', listener: (chunk: Buffer) => void): unknown }, base: string) {
  let seen = '';
  const urlPattern = new RegExp(`(${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/oauth/authorize\\?\\S+)`);
  const waiters: (() => void)[] = [];
  stream.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  /** The first match of `pattern` in what it printed, waiting up to 30 s. */
  const printed = (pattern: RegExp, what: string): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mcp-remote printed no ${what}:\n${seen.slice(-2000)}`)), 30_000);
      const check = () => {
        const match = pattern.exec(seen);
        if (!match) return void waiters.push(check);
        clearTimeout(timer);
        resolve(match);
      };
      check();
    });
  return {
    /** The end of what it printed so far, for a failure's message. */
    tail: () => seen.slice(-2000),
    /** The first authorization URL mcp-remote prints ("Please authorize this client by visiting: …"). */
    authorizationUrl: async (): Promise<URL> => new URL((await printed(urlPattern, 'authorization URL'))[1]!),
    /**
     * Resolves once its callback server listens on `port`. mcp-remote prints the URL, then opens the
     * browser, and only starts that server after the connection attempt fails: a browser that gets
     * through sign-in and consent faster than that (a headless test on a busy machine) finds nothing
     * listening (seen in CI, 2026-11-27: ECONNREFUSED, and no "running" line printed yet).
     */
    callbackListening: async (port: number): Promise<void> => {
      await printed(new RegExp(`OAuth callback server running at http://127\\.0\\.0\\.1:${port}\\b`), `callback server listening on ${port}`);
    },
  };
}

/** The mcp-remote arguments of the published snippet (src/site/snippets.ts), after `npx -y mcp-remote`. */
function snippetArgs(mcpUrl: string): string[] {
  const code = clientSnippets(mcpUrl).find((s) => s.id === 'mcp-remote')?.code ?? '{}';
  const args = (JSON.parse(code) as { mcpServers: Record<string, { args: string[] }> }).mcpServers[SERVER_NAME]?.args ?? [];
  return args.slice(args.indexOf('mcp-remote') + 1);
}

function findFile(dir: string, suffix: string): string {
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) if (entry.endsWith(suffix)) return join(dir, entry);
  throw new Error(`no ${suffix} under ${dir}`);
}

describe('mcp-remote completes its OAuth flow headlessly', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service?.close());

  test('mcp-remote: 401 → discovery → registration → authorize → sign-in and consent → its callback → tools/list → tools/call → its own refresh → revoke → re-authorization', async () => {
    const mcpUrl = `${service.baseUrl}/mcp`;
    const home = mkdtempSync(join(tmpdir(), 'aas-mcp-remote-'));
    const configDir = join(home, '.mcp-auth');
    const browser = join(home, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${home}/opened.txt"\n`);
    chmodSync(browser, 0o755);
    const callbackPort = await freePort();
    /** One desktop-app session: the app starts mcp-remote over stdio and connects through it. */
    const session = () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [PROXY, ...snippetArgs(mcpUrl), String(callbackPort), '--transport', 'http-only'],
        env: { PATH: process.env.PATH ?? '', HOME: home, MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: browser },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'desktop-app', version: '1.0.0' });
      const connecting = client.connect(transport);
      assert.ok(transport.stderr);
      const watcher = stderrWatcher(transport.stderr, service.baseUrl);
      return { client, connecting, authorizationUrl: () => watcher.authorizationUrl(), callbackListening: () => watcher.callbackListening(callbackPort), stderrTail: () => watcher.tail() };
    };
    const stored = () => JSON.parse(readFileSync(findFile(configDir, 'tokens.json'), 'utf8')) as { access_token: string; refresh_token: string; expires_at?: number };
    /** Makes the stored access token look expired, so the next start refreshes it (mcp-remote refreshes ahead of expiry). */
    const expire = () => writeFileSync(findFile(configDir, 'tokens.json'), JSON.stringify({ ...stored(), expires_at: Date.now() - 1000 }));
    const email = `remote@remote-${randomBytes(3).toString('hex')}.example`;

    // 1. First start: no tokens, so the full OAuth flow.
    const first = session();
    try {
      const authorizationUrl = await first.authorizationUrl();
      assert.equal(authorizationUrl.searchParams.get('redirect_uri'), `http://localhost:${callbackPort}/oauth/callback`);
      assert.equal(authorizationUrl.searchParams.get('resource'), mcpUrl);
      assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.match(authorizationUrl.searchParams.get('scope') ?? '', /\bmcp\b/, 'the advertised scope, not the openid fallback (P11)');
      const { callback } = await approveHeadless(authorizationUrl, email);
      assert.equal(callback.searchParams.get('iss'), service.baseUrl);
      // The browser's last hop: mcp-remote's callback server receives the code, once it listens.
      await first.callbackListening();
      const delivered = await fetch(callback).catch((error: unknown) => {
        throw new Error(`mcp-remote's callback server (${callback.origin}) was not reachable; mcp-remote printed:\n${first.stderrTail()}`, { cause: error });
      });
      assert.equal(delivered.status, 200);
      await delivered.body?.cancel();

      await first.connecting;
      assert.equal((await first.client.listTools()).tools.length, 12);
      const result = await first.client.callTool({ name: 'get_teams', arguments: {} });
      assert.notEqual(result.isError, true);
      assert.match(JSON.stringify(result.structuredContent), new RegExp(email));
    } finally {
      await first.client.close();
    }
    const info = JSON.parse(readFileSync(findFile(configDir, 'client_info.json'), 'utf8')) as { client_id: string; token_endpoint_auth_method?: string };
    assert.equal(info.token_endpoint_auth_method, 'none', 'mcp-remote prefers none when advertised');

    // 2. Next start with an expired access token: mcp-remote refreshes by itself (rotation) and connects.
    const before = stored();
    expire();
    const second = session();
    try {
      await second.connecting;
      assert.equal((await second.client.listTools()).tools.length, 12);
    } finally {
      await second.client.close();
    }
    const rotated = stored();
    assert.notEqual(rotated.refresh_token, before.refresh_token, 'mcp-remote refreshed and stored the rotated refresh token');
    assert.notEqual(rotated.access_token, before.access_token);

    // 3. The user revokes the grant (RFC 7009, as the public client): every token of it dies.
    assert.equal(await revoke(service.baseUrl, info.client_id, rotated.refresh_token), 200);
    assert.equal((await createTokenVerifier(service.ctx).verify(rotated.access_token)).ok, false);
    assert.equal((await createTokenVerifier(service.ctx).verify(before.access_token)).ok, false);

    // 4. Next start: the refresh is refused (invalid_grant) and the stored access token gets a 401, so
    // mcp-remote asks the user to authorize again. The endpoint may honour a verified token for up to
    // CACHE_MS after revocation (the documented bound for all instances); session 2 used this one.
    await sleep(CACHE_MS + 250);
    expire();
    const third = session();
    try {
      const again = await third.authorizationUrl();
      assert.equal(again.searchParams.get('client_id'), info.client_id, 'same registration, new authorization');
    } finally {
      await third.client.close();
      await third.connecting.catch(() => undefined);
    }
    assert.equal(await mcpStatus(mcpUrl, rotated.access_token), 401, 'the revoked access token gets a 401 at /mcp');
  });
});
