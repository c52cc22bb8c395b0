// site.md "/llms.txt": the proposal's structure, read by a parser written to the proposal.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../support/service.ts';
import { LlmsTxtError, parseLlmsTxt } from './support/llms-txt-parser.ts';

describe('the llms.txt parser rejects what the proposal does not allow', () => {
  const valid = '# P\n\n> Summary.\n\nProse.\n\n## Docs\n\n- [A](https://a.example/): notes\n\n## Optional\n\n- [B](https://b.example/)\n';
  test('a valid file parses', () => {
    const parsed = parseLlmsTxt(valid);
    assert.equal(parsed.title, 'P');
    assert.deepEqual(parsed.sections.map((s) => s.name), ['Docs', 'Optional']);
    assert.equal(parsed.sections[0]!.links[0]!.notes, 'notes');
  });
  const invalid: Array<[string, string]> = [
    ['no H1', '> Summary.\n'],
    ['no blockquote', '# P\n\nProse.\n'],
    ['a heading inside the prose', '# P\n\n> S\n\n### Aside\n'],
    ['prose inside an H2 section', '# P\n\n> S\n\n## Docs\n\nSome words.\n'],
    ['a bare URL in a section', '# P\n\n> S\n\n## Docs\n\n- https://a.example/\n'],
    ['a relative link', '# P\n\n> S\n\n## Docs\n\n- [A](/a)\n'],
    ['an empty section', '# P\n\n> S\n\n## Docs\n\n## Optional\n\n- [B](https://b.example/)\n'],
    ['an H3 inside a section', '# P\n\n> S\n\n## Docs\n\n### More\n'],
  ];
  for (const [name, text] of invalid) {
    test(`rejects ${name}`, () => assert.throws(() => parseLlmsTxt(text), LlmsTxtError));
  }
});

describe('GET /llms.txt', () => {
  let service: TestService;
  let text: string;
  before(async () => {
    service = await startTestService();
    const res = await fetch(`${service.baseUrl}/llms.txt`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    text = await res.text();
  });
  after(async () => service.close());

  test('parses without error: H1, blockquote, prose, link-only H2 sections', () => {
    const parsed = parseLlmsTxt(text);
    assert.equal(parsed.title, 'Agent Access Service');
    assert.ok(parsed.summary.length > 20);
    assert.ok(parsed.sections.length >= 2);
  });

  test('the last section is ## Optional', () => {
    const parsed = parseLlmsTxt(text);
    assert.equal(parsed.sections.at(-1)!.name, 'Optional');
    assert.equal(parsed.sections.filter((s) => s.name === 'Optional').length, 1);
  });

  test('the prose gives the agent guidance site.md asks for', () => {
    const { info } = parseLlmsTxt(text);
    const mcpUrl = `${service.baseUrl}/mcp`;
    for (const needle of [mcpUrl, 'PKCE', 'dynamic client registration', 'client ID metadata document', '`mcp`', 'role and organization', 'text/markdown', 'work email', 'trial']) {
      assert.ok(info.includes(needle), `prose mentions ${needle}`);
    }
  });

  test('links the developers guide, manifest, OpenAPI, sign-up links and sitemap', () => {
    const urls = parseLlmsTxt(text).sections.flatMap((s) => s.links.map((l) => l.url));
    const base = service.baseUrl;
    for (const url of [
      `${base}/developers`,
      `${base}/.well-known/mcp.json`,
      `${base}/openapi.json`,
      `${base}/login_google/?source=llmstxt`,
      `${base}/login_ms/?source=llmstxt`,
      `${base}/sitemap.xml`,
    ]) {
      assert.ok(urls.includes(url), `links ${url}`);
    }
  });

  test('every site link in it answers 200', async () => {
    const urls = parseLlmsTxt(text).sections.flatMap((s) => s.links.map((l) => l.url));
    // Sign-up, OAuth and MCP addresses belong to other parts of the service; the site's own must work.
    const own = urls.filter((u) => !/\/(login_|oauth|\.well-known\/oauth-)/.test(new URL(u).pathname));
    for (const url of own) {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
    }
  });
});
