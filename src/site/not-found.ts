// The 404 for every unknown path on either host: never a soft 200, never a blanket redirect.
// HTML (noindex), Markdown or JSON by Accept, with recovery links and the closest existing paths.
// API paths keep their protocol's format: OAuth JSON under /oauth/, JSON-RPC under /mcp.
import type { Context } from 'hono';
import type { Config } from '../config/load.ts';
import { HTML, JSON_TYPE, MARKDOWN, negotiate } from '../http/negotiate.ts';
import { PAGES } from './pages.ts';
import { HTML_PAGE_HEADERS, renderSitePage } from './render.ts';
import { sendDocument } from './respond.ts';

type Link = { title: string; href: string };

/** Paths that exist, for "did you mean". API paths are included: a typo of /oauth/token is common. */
export function knownPaths(): string[] {
  return [
    ...PAGES.map((p) => p.path),
    '/llms.txt',
    '/sitemap.xml',
    '/robots.txt',
    '/openapi.json',
    '/.well-known/mcp.json',
    '/.well-known/ai-catalog.json',
    '/.well-known/security.txt',
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-protected-resource',
    '/mcp',
    '/mcp/server-card',
    '/oauth/authorize',
    '/oauth/token',
    '/oauth/register',
    '/oauth/revoke',
  ];
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** Up to three existing paths close to `path` (edit distance, then a parent-path match). */
export function closestPaths(path: string, candidates: string[] = knownPaths()): string[] {
  const wanted = path.toLowerCase().replace(/\/+$/, '') || '/';
  const scored = candidates
    .map((candidate) => ({ candidate, d: distance(wanted, candidate) }))
    .filter(({ candidate, d }) => d > 0 && d <= Math.max(2, Math.ceil(candidate.length * 0.4)))
    .sort((a, b) => a.d - b.d || a.candidate.localeCompare(b.candidate))
    .map(({ candidate }) => candidate);
  const exactCase = candidates.find((c) => c === wanted && c !== path);
  const parents = candidates.filter((c) => c !== '/' && wanted.startsWith(`${c}/`)).sort((a, b) => b.length - a.length);
  return [...new Set([...(exactCase ? [exactCase] : []), ...scored, ...parents])].slice(0, 3);
}

function recoveryLinks(config: Config): Link[] {
  const site = config.siteUrl;
  return [
    { title: 'Home', href: `${site}/` },
    { title: 'Developers guide', href: `${site}/developers` },
    { title: 'llms.txt', href: `${site}/llms.txt` },
    { title: 'Sitemap', href: `${site}/sitemap.xml` },
    { title: 'OpenAPI description', href: `${site}/openapi.json` },
  ];
}

/** API-host paths are linked on BASE_URL, the rest on SITE_URL. */
function absolute(config: Config, path: string): string {
  const api = /^\/(oauth|mcp)(\/|$)|^\/\.well-known\/oauth-/.test(path);
  return `${api ? config.baseUrl : config.siteUrl}${path}`;
}

// Inline code spans cannot hold backticks; the requested path is shown, never interpreted.
const codeSpan = (text: string) => `\`${text.replace(/`/g, "'").replace(/[\r\n]/g, '')}\``;

export function notFoundMarkdown(config: Config, path: string): string {
  const closest = closestPaths(path);
  return [
    '# Not found',
    '',
    `Nothing lives at ${codeSpan(path)}. The address may be mistyped, or the page may have moved.`,
    '',
    ...(closest.length ? ['## Closest existing paths', '', ...closest.map((p) => `- [${p}](${absolute(config, p)})`), ''] : []),
    '## Where to go next',
    '',
    ...recoveryLinks(config).map((l) => `- [${l.title}](${l.href})`),
    '',
  ].join('\n');
}

export async function renderNotFound(c: Context, config: Config): Promise<Response> {
  const path = c.req.path;
  const type = negotiate(c.req.header('accept'), [HTML, MARKDOWN, JSON_TYPE]);
  if (type === JSON_TYPE) {
    const closest = closestPaths(path).map((p) => ({ title: 'Closest existing path', href: absolute(config, p) }));
    const body = JSON.stringify({ error: 'not_found', path, links: [...closest, ...recoveryLinks(config)] });
    return sendDocument(c, { body, contentType: 'application/json; charset=utf-8', status: 404, negotiated: true });
  }
  const markdown = notFoundMarkdown(config, path);
  if (type === MARKDOWN) {
    return sendDocument(c, { body: markdown, contentType: 'text/markdown; charset=utf-8', status: 404, negotiated: true });
  }
  // The same URL answers in Markdown; a leading '//' would make the href point off-site.
  const self = `/${path.replace(/^\/+/, '')}`;
  const document = await renderSitePage({ title: 'Not found', markdown, markdownHref: self, markdownByAcceptOnly: true, noindex: true });
  return sendDocument(c, { body: document, contentType: 'text/html; charset=utf-8', status: 404, negotiated: true, headers: HTML_PAGE_HEADERS });
}

/** Unknown paths under the API's own prefixes, in that protocol's error format. */
export function apiNotFound(c: Context, config: Config): Response | undefined {
  const path = c.req.path;
  if (/^\/mcp(\/|$)/.test(path)) {
    // JSON-RPC 2.0 §5.1 error object; id null because no request was read.
    return c.json(
      { jsonrpc: '2.0', id: null, error: { code: -32601, message: `Not found: ${path}. The MCP endpoint is POST ${config.baseUrl}/mcp.` } },
      404,
    );
  }
  if (/^\/oauth(\/|$)/.test(path)) {
    return c.json({ error: 'not_found', error_description: `No OAuth endpoint at ${path}. See ${config.baseUrl}/.well-known/oauth-authorization-server.` }, 404);
  }
  return undefined;
}

/** The app's notFound handler: API prefixes in their own format, everything else negotiated. */
export function siteNotFound(config: Config) {
  return (c: Context) => apiNotFound(c, config) ?? renderNotFound(c, config);
}
