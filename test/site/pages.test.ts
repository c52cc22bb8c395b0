// The page sources: each starts with its title as the one H1, and every link on every page, and in
// llms.txt, leads somewhere (no page of ours links a 404).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PAGES, pageSource } from '../../src/site/pages.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('page sources', () => {
  for (const page of PAGES) {
    test(`${page.file} starts with its title as the only H1`, () => {
      const source = pageSource(page);
      assert.equal(source.split('\n')[0], `# ${page.title}`);
      assert.equal(source.match(/^# /gm)?.length, 1);
    });
  }
});

describe('links on the site', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.close());

  test('every link on every page and in llms.txt answers without 404', async () => {
    const sources = await Promise.all([
      ...PAGES.map(async (page) => (await fetch(`${service.baseUrl}${page.path}`, { headers: { accept: 'text/markdown' } })).text()),
      (await fetch(`${service.baseUrl}/llms.txt`)).text(),
    ]);
    const links = new Set(sources.flatMap((markdown) => [...markdown.matchAll(/\]\((http[^)\s]+)\)/g)].map((m) => m[1]!)));
    assert.ok(links.size > 10);
    const broken: string[] = [];
    for (const link of links) {
      const url = new URL(link);
      if (url.hash && url.pathname === '/developers/tools') continue;
      const res = await fetch(link, { redirect: 'manual' });
      await res.arrayBuffer();
      if (res.status === 404 || res.status >= 500) broken.push(`${link} → ${res.status}`);
    }
    assert.deepEqual(broken, [], `broken links:\n  ${broken.join('\n  ')}`);
  });
});
