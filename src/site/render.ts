// Markdown → accessible HTML inside the shared layout. Raw HTML in a source is escaped, not passed
// through (sources include text from tool definitions), and headings get ids for deep links.
import { Marked, type Tokens } from 'marked';
import { raw } from 'hono/html';
import { html, pageHtml, PAGE_CSP } from '../http/html.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .replace(/[^a-z0-9_\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-');
}

// Heading ids seen in the document being parsed (parsing is synchronous), so repeated headings get
// distinct ids.
let seenIds = new Set<string>();

function uniqueId(base: string): string {
  let id = base;
  for (let n = 2; seenIds.has(id); n += 1) id = `${base}-${n}`;
  seenIds.add(id);
  return id;
}

function createMarked(): Marked {
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(token.text);
      },
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const slug = slugify(inner);
        const id = slug ? uniqueId(slug) : '';
        return `<h${token.depth}${id ? ` id="${id}"` : ''}>${inner}</h${token.depth}>\n`;
      },
    },
  });
  return marked;
}

const marked = createMarked();

export function markdownToHtml(markdown: string): string {
  seenIds = new Set();
  return marked.parse(markdown, { async: false });
}

/** The first `# H1` of a Markdown document, or undefined. */
export function titleOf(markdown: string): string | undefined {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim();
}

export const SITE_NAME = 'Agent Access Service';

const NAV: ReadonlyArray<[string, string]> = [
  ['/', 'Home'],
  ['/developers', 'Developers'],
  ['/developers/tools', 'Tools'],
  ['/security', 'Security'],
  ['/get-started', 'Sign up'],
  ['/pricing', 'Pricing'],
  ['/status', 'Status'],
];

export type SitePageOptions = {
  title: string;
  markdown: string;
  /** Where the Markdown twin of this page lives. */
  markdownHref: string;
  /** The twin is this same URL, chosen by Accept (404 pages): say so instead of linking. */
  markdownByAcceptOnly?: boolean;
  /** The page's own path, marked as current in the navigation. */
  path?: string;
  description?: string;
  noindex?: boolean;
  /** Absolute canonical URL. */
  canonical?: string;
};

/** Renders a site page to the full HTML document string. */
export async function renderSitePage(options: SitePageOptions): Promise<string> {
  const header = html`<nav aria-label="Site">
<a class="brand" href="/">Agent Access</a>
<ul>${NAV.map(
    ([href, label]) => html`<li><a href="${href}"${options.path === href ? raw(' aria-current="page"') : ''}>${label}</a></li>`,
  )}</ul>
</nav>`;
  const twin = options.markdownByAcceptOnly
    ? html`This page is also available as Markdown: request it with <code>Accept: text/markdown</code>.`
    : html`<a href="${options.markdownHref}" type="text/markdown">View this page as Markdown</a>`;
  const footer = html`<p>${twin} ·
<a href="/llms.txt">llms.txt</a> · <a href="/sitemap.xml">Sitemap</a> · <a href="/openapi.json">OpenAPI</a> ·
<a href="/.well-known/mcp.json">MCP manifest</a></p>`;
  // An empty data: icon stops browsers from asking for /favicon.ico (a 404 on every page view).
  const head = html`<link rel="icon" href="data:,">
<link rel="alternate" type="text/markdown" href="${options.markdownHref}">
${options.description ? html`<meta name="description" content="${options.description}">` : ''}
${options.canonical ? html`<link rel="canonical" href="${options.canonical}">` : ''}`;
  const document = await pageHtml({
    title: options.title === SITE_NAME ? SITE_NAME : `${options.title} · ${SITE_NAME}`,
    body: raw(markdownToHtml(options.markdown)),
    head,
    header,
    footer,
    noindex: options.noindex,
  });
  return document.toString();
}

/** Headers every HTML page carries (the layout's CSP: nothing from elsewhere, no inline script). */
export const HTML_PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};
