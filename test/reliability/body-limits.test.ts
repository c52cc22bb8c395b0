// Announced bodies larger than an endpoint accepts are refused at once, before they are read:
// a client declaring a 100 MB body (and sending a little of it) gets its answer within the
// deadline instead of holding the endpoint waiting, or making it buffer the lot.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'node:http';
import { startTestService, type TestService } from '../support/service.ts';
import { rpcMessageIn } from '../support/mcp-message.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { issueGrantTokens } from '../../src/auth-server/index.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail } from '../../src/store/users.ts';

/** The status line and body of the answer to a POST that declares `length` bytes but sends 1 KB. */
function declareHuge(port: number, path: string, type: string, length: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n${'a'.repeat(1024)}`);
    });
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${path}: no answer within 5 s while the declared body was still expected`));
    }, 5000);
    socket.on('data', (d) => {
      buffer += d;
      const end = buffer.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(buffer)?.[1];
      if (end >= 0 && length !== undefined && buffer.length >= end + 4 + Number(length)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(buffer.split(' ')[1]), body: buffer.slice(end + 4) });
      }
    });
    socket.on('error', reject);
  });
}

/** POSTs `body` in 16 KB chunks with Transfer-Encoding: chunked (no Content-Length): the server can only count. */
function postChunked(port: number, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; type: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { Host: `localhost:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? null, body: text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.slice(i, i + 16 * 1024));
    req.end();
  });
}

describe('bodies without a declared length are counted while read', () => {
  let service: TestService;
  let port: number;
  let bearer: string;
  before(async () => {
    service = await startTestService();
    port = Number(new URL(service.baseUrl).port);
    await seedDemo(service.ctx.store, { meetings: 10, documents: 0, appUrl: service.ctx.config.appUrl });
    const org = await findOrganizationByDomain(service.ctx.store.db, 'northwind.example');
    const user = await findUserByEmail(service.ctx.store.db, org!.id, 'ada.admin@northwind.example');
    bearer = (await issueGrantTokens(service.ctx, { userId: user!.id, orgId: org!.id, clientId: 'test-client', scopes: ['mcp'], resource: `${service.baseUrl}/mcp` })).accessToken;
  });
  after(() => service?.close());

  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  it('reads a small chunked form at /oauth/token (the grant type in it is judged)', async () => {
    const answer = await postChunked(port, '/oauth/token', form, 'grant_type=magic&client_id=someone');
    assert.equal(answer.status, 400);
    assert.equal((JSON.parse(answer.body) as { error: string }).error, 'unsupported_grant_type');
  });

  it('refuses a chunked form over 64 KB at /oauth/token with 400 invalid_request', async () => {
    const answer = await postChunked(port, '/oauth/token', form, `grant_type=refresh_token&client_id=x&pad=${'a'.repeat(70 * 1024)}`);
    assert.equal(answer.status, 400);
    assert.equal((JSON.parse(answer.body) as { error: string }).error, 'invalid_request');
  });

  const mcp = () => ({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${bearer}`, 'MCP-Protocol-Version': '2025-11-25' });
  it('reads a small chunked JSON-RPC call at /mcp', async () => {
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_teams', arguments: {} } };
    const answer = await postChunked(port, '/mcp', mcp(), JSON.stringify(call));
    assert.equal(answer.status, 200);
    const reply = rpcMessageIn(answer.body, answer.type) as { id: number; result: { isError?: boolean; structuredContent: { me: { email: string } } } };
    assert.equal(reply.id, 7);
    assert.equal(reply.result.structuredContent.me.email, 'ada.admin@northwind.example');
  });

  it('refuses a chunked body over 1 MiB at /mcp with 413', async () => {
    const call = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_teams', arguments: { pad: 'a'.repeat(1100 * 1024) } } };
    const answer = await postChunked(port, '/mcp', mcp(), JSON.stringify(call));
    assert.equal(answer.status, 413);
  });
});

describe('oversized bodies are refused before they are read', () => {
  let service: TestService;
  let port: number;
  before(async () => {
    service = await startTestService();
    port = Number(new URL(service.baseUrl).port);
  });
  after(() => service?.close());

  for (const [path, type, code] of [
    ['/oauth/token', 'application/x-www-form-urlencoded', 'invalid_request'],
    ['/oauth/revoke', 'application/x-www-form-urlencoded', 'invalid_request'],
    ['/oauth/register', 'application/json', 'invalid_client_metadata'],
  ] as const) {
    it(`answers ${path} declaring 100 MB with 400 ${code} at once`, async () => {
      const answer = await declareHuge(port, path, type, 100 * 1024 * 1024);
      assert.equal(answer.status, 400);
      assert.equal((JSON.parse(answer.body) as { error: string }).error, code);
    });
  }

  it('answers the consent form declaring 100 MB with a local error page at once', async () => {
    const answer = await declareHuge(port, '/oauth/consent', 'application/x-www-form-urlencoded', 100 * 1024 * 1024);
    assert.equal(answer.status, 400);
    assert.match(answer.body, /<html/);
  });

  // Browser forms outside /oauth: sign-out, disconnecting an app, and anything else that posts.
  for (const path of ['/signout', '/account/connected-apps/revoke', '/some/unknown/form']) {
    it(`answers ${path} declaring 100 MB with a 413 page at once`, async () => {
      const answer = await declareHuge(port, path, 'application/x-www-form-urlencoded', 100 * 1024 * 1024);
      assert.equal(answer.status, 413);
      assert.match(answer.body, /<html/);
    });
  }

  it('answers /mcp declaring 100 MB with 413 at once', async () => {
    const answer = await declareHuge(port, '/mcp', 'application/json', 100 * 1024 * 1024);
    assert.equal(answer.status, 413);
  });
});
