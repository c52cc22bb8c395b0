// Announced bodies larger than an endpoint accepts are refused at once, before they are read:
// a client declaring a 100 MB body (and sending a little of it) gets its answer within the
// deadline instead of holding the endpoint waiting, or making it buffer the lot.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestService, type TestService } from '../support/service.ts';

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
