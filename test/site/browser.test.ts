// A real browser renders the home page, the developers guide and a 404: no console errors (CSP
// violations included), no request leaves the service's origin, and the accessibility basics hold
// (landmarks, one h1, no skipped heading levels, named links, AA text contrast).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.ts';
import { launchBrowser } from '../support/browser.ts';

// Browser globals used inside page.evaluate callbacks (they run in Chromium, not in Node), declared
// narrowly here: adding the DOM lib to the project would change Node's fetch types for everyone.
type BrowserElement = {
  tagName: string;
  id: string;
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  parentElement: BrowserElement | null;
  getAttribute(name: string): string | null;
};
type BrowserDocument = {
  documentElement: BrowserElement & { lang: string };
  title: string;
  activeElement: BrowserElement | null;
  styleSheets: Iterable<{ href: string | null; cssRules: { length: number } }>;
  querySelector(selector: string): BrowserElement | null;
  querySelectorAll(selector: string): Iterable<BrowserElement> & { length: number };
  getElementsByTagNameNS(namespace: string, name: string): { length: number };
};
declare const document: BrowserDocument;
declare function getComputedStyle(element: BrowserElement): { color: string; backgroundColor: string };
declare const DOMParser: new () => { parseFromString(source: string, type: string): BrowserDocument };

type Visit = { status: number; consoleErrors: string[]; external: string[]; page: Page };

describe('pages in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  before(async () => {
    service = await startTestService();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  async function visit(path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Visit> {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const external: string[] = [];
    const origin = new URL(service.baseUrl).origin;
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin !== origin && !url.startsWith('data:')) {
        external.push(url);
        return route.abort();
      }
      return route.continue();
    });
    const response = await page.goto(`${service.baseUrl}${path}`, { waitUntil: 'load' });
    return { status: response?.status() ?? 0, consoleErrors, external, page };
  }

  async function accessibilityProblems(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const problems: string[] = [];
      if (!document.documentElement.lang) problems.push('html has no lang');
      if (!document.title.trim()) problems.push('no <title>');
      for (const landmark of ['header', 'nav', 'main', 'footer']) {
        if (document.querySelectorAll(landmark).length !== 1) problems.push(`expected one <${landmark}>`);
      }
      if (document.querySelectorAll('h1').length !== 1) problems.push('expected exactly one h1');
      let previous = 0;
      for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
        const level = Number(heading.tagName[1]);
        if (previous && level > previous + 1) problems.push(`heading level skips from h${previous} to h${level}: ${heading.textContent}`);
        previous = level;
      }
      for (const link of document.querySelectorAll('a')) {
        if (!link.textContent?.trim() && !link.getAttribute('aria-label')) problems.push(`link without a name: ${link.getAttribute('href')}`);
      }
      const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
      if (new Set(ids).size !== ids.length) problems.push('duplicate ids');

      // WCAG 2.x relative luminance and contrast ratio of each text element against its background.
      const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
      const luminance = ([r, g, b]: number[]) =>
        [r!, g!, b!].map((c) => {
          const s = c / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
      const background = (element: BrowserElement | null): number[] => {
        for (let e = element; e; e = e.parentElement) {
          const color = rgb(getComputedStyle(e).backgroundColor);
          if (color.length >= 3 && (color.length === 3 || color[3]! > 0)) return color;
        }
        return [255, 255, 255];
      };
      for (const element of document.querySelectorAll('p, li, a, code, th, td, h1, h2, h3, blockquote, footer')) {
        if (!element.textContent?.trim()) continue;
        const fg = luminance(rgb(getComputedStyle(element).color));
        const bg = luminance(background(element));
        const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
        if (ratio < 4.5) problems.push(`contrast ${ratio.toFixed(2)} < 4.5 on <${element.tagName.toLowerCase()}> "${element.textContent.trim().slice(0, 30)}"`);
      }
      return problems;
    });
  }

  for (const [path, expectedStatus] of [['/', 200], ['/developers', 200], ['/developers/tools', 200], ['/no-such-page', 404]] as const) {
    test(`${path} renders with no console errors, no external requests and sound accessibility`, async () => {
      for (const scheme of ['light', 'dark'] as const) {
        const { status, consoleErrors, external, page } = await visit(path, scheme);
        try {
          assert.equal(status, expectedStatus);
          // Chromium reports the 404 document itself as a failed resource; anything else is a defect.
          const unexpected = consoleErrors.filter((m) => !(expectedStatus === 404 && /status of 404/.test(m)));
          assert.deepEqual(unexpected, [], `console errors (${scheme})`);
          assert.deepEqual(external, [], `external requests (${scheme})`);
          const sheetLoaded = await page.evaluate(() => [...document.styleSheets].some((s) => (s.href ?? '').endsWith('/assets/site.css') && s.cssRules.length > 0));
          assert.ok(sheetLoaded, 'the site stylesheet is applied');
          assert.deepEqual(await accessibilityProblems(page), [], `accessibility (${scheme})`);
        } finally {
          await page.context().close();
        }
      }
    });
  }

  test("the sitemap is well-formed XML to the browser's own parser", async () => {
    const { page } = await visit('/');
    try {
      const text = await (await page.request.get(`${service.baseUrl}/sitemap.xml`)).text();
      const result = await page.evaluate((source) => {
        const doc = new DOMParser().parseFromString(source, 'application/xml');
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          root: doc.documentElement.localName,
          namespace: doc.documentElement.namespaceURI,
          locs: doc.getElementsByTagNameNS('http://www.sitemaps.org/schemas/sitemap/0.9', 'loc').length,
        };
      }, text);
      assert.equal(result.error, null);
      assert.equal(result.root, 'urlset');
      assert.equal(result.namespace, 'http://www.sitemaps.org/schemas/sitemap/0.9');
      assert.ok(result.locs > 0);
    } finally {
      await page.context().close();
    }
  });

  test('the skip link and the Markdown link work from the keyboard', async () => {
    const { page } = await visit('/developers');
    try {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
      const href = await page.getAttribute('a[type="text/markdown"]', 'href');
      assert.equal(href, '/developers.md');
      const res = await page.request.get(`${service.baseUrl}${href}`);
      assert.equal(res.headers()['content-type'], 'text/markdown; charset=utf-8');
    } finally {
      await page.context().close();
    }
  });
});
