// site.md "Markdown on request": q-values honoured, `*/*` alone means HTML, text/markdown with
// charset, Vary: Accept on both, distinct ETags, If-None-Match → 304, only GET and HEAD negotiate.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiate, prefersMarkdown } from '../../src/http/negotiate.ts';
import { PAGES, markdownPath } from '../../src/site/pages.ts';
import { startTestService, type TestService } from '../support/service.ts';

const CHROME_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
const FIREFOX_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('Accept negotiation rules', () => {
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['', false],
    ['*/*', false],
    [CHROME_ACCEPT, false],
    [FIREFOX_ACCEPT, false],
    ['text/markdown', true],
    ['text/markdown;q=0.1, text/html', false],
    ['text/html;q=0.5, text/markdown', true],
    ['text/markdown, text/html', false],
    ['text/markdown, */*;q=0.8', true],
    ['text/markdown, */*', true],
    ['text/*', false],
    ['text/markdown;q=0', false],
    ['application/json', false],
    ['TEXT/MARKDOWN', true],
    ['text/plain, text/markdown;q=0.9', true],
  ];
  for (const [accept, markdown] of cases) {
    test(`Accept ${JSON.stringify(accept)} gets ${markdown ? 'Markdown' : 'HTML'}`, () => {
      assert.equal(prefersMarkdown(accept), markdown);
    });
  }

  test('a third type wins only when preferred', () => {
    assert.equal(negotiate('application/json', ['text/html', 'text/markdown', 'application/json']), 'application/json');
    assert.equal(negotiate('application/json;q=0.5, text/html', ['text/html', 'text/markdown', 'application/json']), 'text/html');
    assert.equal(negotiate('*/*', ['text/html', 'text/markdown', 'application/json']), 'text/html');
  });
});

describe('Markdown on request, against the running server', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.close());

  for (const page of PAGES) {
    test(`a browser's Accept gets HTML at ${page.path}`, async () => {
      const res = await fetch(`${service.baseUrl}${page.path}`, { headers: { accept: CHROME_ACCEPT } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(res.headers.get('vary'), 'Accept');
      const body = await res.text();
      assert.match(body, /^<!doctype html>/i);
      assert.ok(body.includes(`<link rel="alternate" type="text/markdown" href="${markdownPath(page)}">`), 'links its Markdown twin in <head>');
      assert.ok(body.includes(`href="${markdownPath(page)}" type="text/markdown">View this page as Markdown</a>`), 'links its Markdown twin visibly');
    });

    test(`Accept: text/markdown gets the Markdown source at ${page.path}`, async () => {
      const res = await fetch(`${service.baseUrl}${page.path}`, { headers: { accept: 'text/markdown' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(res.headers.get('vary'), 'Accept');
      const body = await res.text();
      assert.match(body, /^# \S/, 'starts with the page H1');
      assert.doesNotMatch(body, /<html|<p>|<h1/i, 'is Markdown, not HTML relabelled');
      assert.doesNotMatch(body, /\{\{[A-Z_]+\}\}/, 'every placeholder is filled');
    });
  }

  test('text/markdown;q=0.1, text/html gets HTML', async () => {
    const res = await fetch(`${service.baseUrl}/developers`, { headers: { accept: 'text/markdown;q=0.1, text/html' } });
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  test('*/* alone gets HTML', async () => {
    const res = await fetch(`${service.baseUrl}/developers`, { headers: { accept: '*/*' } });
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  test('the Markdown twin URL serves the same Markdown as negotiation', async () => {
    const negotiated = await (await fetch(`${service.baseUrl}/developers`, { headers: { accept: 'text/markdown' } })).text();
    const twin = await fetch(`${service.baseUrl}/developers.md`, { headers: { accept: CHROME_ACCEPT } });
    assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(await twin.text(), negotiated);
    assert.equal((await fetch(`${service.baseUrl}/index.md`)).status, 200);
  });

  test('each representation has its own ETag, and If-None-Match answers 304 for the matching one only', async () => {
    const html = await fetch(`${service.baseUrl}/security`, { headers: { accept: 'text/html' } });
    const md = await fetch(`${service.baseUrl}/security`, { headers: { accept: 'text/markdown' } });
    const htmlTag = html.headers.get('etag');
    const mdTag = md.headers.get('etag');
    assert.ok(htmlTag && mdTag);
    assert.notEqual(htmlTag, mdTag);

    const notModified = await fetch(`${service.baseUrl}/security`, { headers: { accept: 'text/markdown', 'if-none-match': mdTag } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get('etag'), mdTag);
    assert.equal(notModified.headers.get('vary'), 'Accept');
    assert.equal(await notModified.text(), '');

    const otherRepresentation = await fetch(`${service.baseUrl}/security`, { headers: { accept: 'text/html', 'if-none-match': mdTag } });
    assert.equal(otherRepresentation.status, 200, 'the Markdown ETag does not validate the HTML');
    assert.equal(otherRepresentation.headers.get('etag'), htmlTag);
  });

  test('HEAD negotiates like GET and sends no body', async () => {
    const res = await fetch(`${service.baseUrl}/developers`, { method: 'HEAD', headers: { accept: 'text/markdown' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(res.headers.get('vary'), 'Accept');
    assert.equal(await res.text(), '');
  });

  test('other methods do not negotiate: POST to a page is 405 with Allow', async () => {
    const res = await fetch(`${service.baseUrl}/developers`, { method: 'POST', headers: { accept: 'text/markdown' } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.notEqual(res.headers.get('content-type'), 'text/markdown; charset=utf-8');
  });

  test('HTML pages carry the strict page CSP and load nothing from elsewhere', async () => {
    const res = await fetch(`${service.baseUrl}/`);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const body = await res.text();
    for (const [, url] of body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      if (/^https?:/.test(url!)) assert.ok(url!.startsWith(service.baseUrl), `only same-origin absolute links: ${url}`);
    }
    assert.doesNotMatch(body, /<script|<img[^>]+src="https?:|<link[^>]+href="https?:\/\/(?!localhost)/);
  });
});
