// Request logging over real HTTP: every request gets one access line with its id, method, path
// (without the query) and status; lines a handler writes (here an audit line) carry the same id;
// below `info` a request writes nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startTestService, type TestService } from '../support/service.ts';

type Line = Record<string, unknown>;

/** A service whose log lines are collected, started before the enclosing describe's tests. */
function serviceLoggingAt(level: string): { service: () => TestService; lines: Line[] } {
  const lines: Line[] = [];
  let service: TestService | undefined;
  before(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const text of String(chunk).split('\n')) if (text) lines.push(JSON.parse(text) as Line);
        done();
      },
    });
    service = await startTestService({ logger: pino({ level }, sink) });
  });
  after(async () => {
    await service?.close();
  });
  return { service: () => service as TestService, lines };
}

const register = (base: string, headers: Record<string, string>) =>
  fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ client_name: 'Logging test', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
  });

describe('request logging at info', () => {
  const { service, lines } = serviceLoggingAt('info');

  it('writes one access line per request, with its id, method, path without the query, and status', async () => {
    const res = await fetch(`${service().baseUrl}/healthz?code=should-not-be-logged`, { headers: { 'x-request-id': 'trace-access-0001' } });
    assert.equal(res.status, 200);
    const mine = lines.filter((l) => l.reqId === 'trace-access-0001');
    assert.equal(mine.length, 1);
    assert.deepEqual({ msg: mine[0]?.msg, method: mine[0]?.method, path: mine[0]?.path, status: mine[0]?.status }, { msg: 'request', method: 'GET', path: '/healthz', status: 200 });
    assert.equal(typeof mine[0]?.ms, 'number');
    assert.ok(!JSON.stringify(lines).includes('should-not-be-logged'));
  });

  it('gives the lines a handler writes the same request id as the access line, a generated one included', async () => {
    const res = await register(service().baseUrl, {});
    assert.equal(res.status, 201);
    const id = res.headers.get('x-request-id');
    assert.ok(id);
    const mine = lines.filter((l) => l.reqId === id);
    assert.deepEqual(mine.map((l) => l.msg).sort(), ['audit', 'request']);
    assert.equal(mine.find((l) => l.msg === 'audit')?.audit, 'client_registered');
  });
});

describe('request logging at warn', () => {
  const { service, lines } = serviceLoggingAt('warn');

  it('writes nothing for requests that go well', async () => {
    const before = lines.length;
    assert.equal((await fetch(`${service().baseUrl}/healthz`)).status, 200);
    assert.equal((await register(service().baseUrl, { 'x-request-id': 'trace-quiet-0001' })).status, 201);
    assert.equal(lines.length, before);
  });
});
