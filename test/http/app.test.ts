// The HTTP baseline every route inherits: request ids, security headers, health, JSON errors.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApp } from '../../src/http/app.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('http baseline', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => {
    await service.close();
  });

  it('should answer /healthz with 200 over real HTTP', async () => {
    const res = await fetch(`${service.baseUrl}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('should answer /readyz with 200 and the state of its dependencies', async () => {
    const res = await fetch(`${service.baseUrl}/readyz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok', database: 'ok', limits: { kind: 'memory', status: 'ok' } });
  });

  it('should put a request id on every response, keeping a well-formed incoming one', async () => {
    const fresh = await fetch(`${service.baseUrl}/healthz`);
    assert.match(fresh.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const kept = await fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': 'trace-1234abcd' } });
    assert.equal(kept.headers.get('x-request-id'), 'trace-1234abcd');
    const replaced = await fetch(`${service.baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id <script>' } });
    assert.notEqual(replaced.headers.get('x-request-id'), 'bad id <script>');
  });

  it('should send the baseline security headers', async () => {
    const res = await fetch(`${service.baseUrl}/healthz`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(res.headers.get('strict-transport-security'), null, 'no HSTS on an http BASE_URL');
  });

  it('should answer unknown API paths with a JSON 404', async () => {
    const res = await fetch(`${service.baseUrl}/oauth/nothing-here`);
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const body = (await res.json()) as { error: string };
    assert.equal(body.error, 'not_found');
  });
});

describe('http errors and readiness under failure', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => {
    await service.close();
  });

  it('should answer an unexpected failure with a JSON 500 that hides the cause', async () => {
    const app = await createApp(service.ctx);
    app.get('/api/boom', () => {
      throw new Error('secret database detail');
    });
    const res = await app.request('/api/boom');
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.doesNotMatch(text, /secret database detail|at .*\.ts/);
    const body = JSON.parse(text) as { error: string; error_description: string };
    assert.equal(body.error, 'server_error');
    assert.match(body.error_description, new RegExp(res.headers.get('x-request-id') ?? 'missing'));
  });

  it('should send HSTS when BASE_URL is https', async () => {
    const app = await createApp({ ...service.ctx, config: { ...service.ctx.config, baseUrl: 'https://agents.example.com' } });
    const res = await app.request('/healthz');
    assert.match(res.headers.get('strict-transport-security') ?? '', /max-age=\d+/);
  });

  it('should answer /readyz with 503 when the database is unreachable', async () => {
    await service.ctx.store.close();
    const res = await fetch(`${service.baseUrl}/readyz`);
    assert.equal(res.status, 503);
    const body = (await res.json()) as { status: string; database: string };
    assert.equal(body.database, 'down');
    assert.equal(res.headers.get('retry-after'), '5');
  });
});
