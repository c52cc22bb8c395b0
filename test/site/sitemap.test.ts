// site.md "/sitemap.xml": sitemaps.org protocol 0.9, one <url><loc> per canonical page (absolute,
// one host, entity-escaped), referenced from robots.txt, every listed URL answering 200.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PAGES } from '../../src/site/pages.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { parseXml } from './support/xml.ts';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

describe('the strict XML reader', () => {
  test('rejects an unescaped ampersand and a mismatched tag', () => {
    assert.throws(() => parseXml('<a>x & y</a>'));
    assert.throws(() => parseXml('<a><b></a></b>'));
    assert.equal(parseXml('<a>x &amp; y</a>').text, 'x & y');
  });
});

describe('GET /sitemap.xml', () => {
  let service: TestService;
  let source: string;
  before(async () => {
    service = await startTestService();
    const res = await fetch(`${service.baseUrl}/sitemap.xml`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
    source = await res.text();
  });
  after(async () => service.close());

  test('is well-formed UTF-8 XML with the 0.9 urlset namespace', () => {
    assert.match(source, /^<\?xml version="1\.0" encoding="UTF-8"\?>/);
    const root = parseXml(source);
    assert.equal(root.name, 'urlset');
    assert.equal(root.attributes.xmlns, NS);
  });

  test('holds only <url> entries with one absolute <loc> each, and nothing the protocol does not define', () => {
    const root = parseXml(source);
    assert.ok(root.children.length > 0 && root.children.length <= 50_000);
    for (const url of root.children) {
      assert.equal(url.name, 'url');
      const names = url.children.map((c) => c.name);
      assert.equal(names.filter((n) => n === 'loc').length, 1);
      for (const n of names) assert.ok(['loc', 'lastmod', 'changefreq', 'priority'].includes(n), `unexpected <${n}>`);
      const loc = url.children.find((c) => c.name === 'loc')!.text;
      assert.ok(loc.length < 2048);
      assert.equal(new URL(loc).href, loc, 'absolute and normalised');
    }
  });

  test('lists every page once, all on one host', () => {
    const locs = parseXml(source).children.map((u) => u.children.find((c) => c.name === 'loc')!.text);
    assert.equal(new Set(locs).size, locs.length, 'no duplicates');
    assert.equal(new Set(locs.map((l) => new URL(l).origin)).size, 1);
    assert.deepEqual(locs.map((l) => new URL(l).pathname).sort(), PAGES.map((p) => p.path).sort());
  });

  test('every <loc> answers 200 with HTML', async () => {
    for (const url of parseXml(source).children) {
      const loc = url.children.find((c) => c.name === 'loc')!.text;
      const res = await fetch(loc, { redirect: 'manual' });
      assert.equal(res.status, 200, loc);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    }
  });

  test('robots.txt references it', async () => {
    const robots = await (await fetch(`${service.baseUrl}/robots.txt`)).text();
    assert.ok(robots.includes(`Sitemap: ${service.baseUrl}/sitemap.xml`));
  });
});
