// The public site: pages (HTML, or their Markdown source by Accept), the machine-readable files
// agents and crawlers read, and the discovery documents. Mounted last, so it never shadows the
// API's routes; host routing (hosts.ts) keeps site and API apart when their hosts differ.
import { readFileSync } from 'node:fs';
import { Hono, type Context } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import { STYLESHEET_PATH } from '../http/html.ts';
import { hostRouting } from './hosts.ts';
import { renderLlmsTxt } from './llms-txt.ts';
import { aiCatalog, serverCard, serverJson, SERVER_CARD_MEDIA_TYPE } from './mcp-manifest.ts';
import { prefersMarkdown } from '../http/negotiate.ts';
import { openApiDocument } from './openapi/index.ts';
import { fill, markdownPath, PAGES, pageSource, placeholders, type PageDefinition } from './pages.ts';
import { HTML_PAGE_HEADERS, renderSitePage } from './render.ts';
import { PUBLIC_CORS, sendDocument } from './respond.ts';
import { renderSecurityTxt } from './security-txt.ts';
import { renderRobotsTxt, renderSitemap } from './sitemap.ts';
import { statusMarkdown } from './status.ts';
import { renderToolNamesOnly, renderToolsReference, type ToolDefinitionLike } from './tools-reference.ts';
import { TOOL_DEFINITIONS } from './tools-source.ts';

export { hostRouting } from './hosts.ts';
export { siteNotFound } from './not-found.ts';

export type SiteOptions = {
  /** The MCP tool registry the tools reference is generated from. */
  tools?: readonly ToolDefinitionLike[];
};

const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const stylesheet = readFileSync(new URL('./assets/site.css', import.meta.url), 'utf8');

export function siteRoutes(ctx: AppContext, options: SiteOptions = {}): Hono<AppEnv> {
  const { config } = ctx;
  const app = new Hono<AppEnv>();
  const values = placeholders(config);
  const tools = options.tools ?? TOOL_DEFINITIONS;
  const toolsMarkdown = tools && tools.length > 0 ? renderToolsReference(tools) : renderToolNamesOnly();

  async function markdownOf(page: PageDefinition): Promise<string> {
    const extra: Record<string, string> = {};
    if (page.path === '/developers/tools') extra.TOOLS = toolsMarkdown;
    if (page.path === '/status') extra.STATUS = await statusMarkdown(ctx);
    return fill(pageSource(page), { ...values, ...extra });
  }

  // Static pages are rendered once; live ones on every request.
  const rendered = new Map<string, Promise<{ markdown: string; html: string }>>();
  function representations(page: PageDefinition) {
    const build = async () => {
      const markdown = await markdownOf(page);
      const html = await renderSitePage({
        title: page.title,
        markdown,
        markdownHref: markdownPath(page),
        path: page.path,
        description: page.summary,
        canonical: page.path === '/' ? `${config.siteUrl}/` : `${config.siteUrl}${page.path}`,
      });
      return { markdown, html };
    };
    if (page.live) return build();
    let cached = rendered.get(page.path);
    if (!cached) {
      cached = build();
      rendered.set(page.path, cached);
    }
    return cached;
  }

  const cacheControl = (page: PageDefinition) => (page.live ? 'no-store' : 'public, max-age=300');
  const canonicalLink = (page: PageDefinition) => `<${page.path === '/' ? `${config.siteUrl}/` : `${config.siteUrl}${page.path}`}>; rel="canonical"`;

  app.use(hostRouting(config));

  for (const page of PAGES) {
    app.get(page.path, async (c) => {
      const { markdown, html } = await representations(page);
      // site.md: Markdown when Accept prefers text/markdown; Vary: Accept on both representations.
      if (prefersMarkdown(c.req.header('accept'))) {
        return sendDocument(c, { body: markdown, contentType: MARKDOWN_TYPE, negotiated: true, cacheControl: cacheControl(page), headers: { Link: canonicalLink(page) } });
      }
      return sendDocument(c, { body: html, contentType: HTML_TYPE, negotiated: true, cacheControl: cacheControl(page), headers: HTML_PAGE_HEADERS });
    });
    app.get(markdownPath(page), async (c) => {
      const { markdown } = await representations(page);
      return sendDocument(c, { body: markdown, contentType: MARKDOWN_TYPE, cacheControl: cacheControl(page), headers: { Link: canonicalLink(page) } });
    });
  }

  app.get(STYLESHEET_PATH, (c) => sendDocument(c, { body: stylesheet, contentType: 'text/css; charset=utf-8', cacheControl: 'public, max-age=3600' }));

  const llmsTxt = renderLlmsTxt(config);
  app.get('/llms.txt', (c) => {
    const markdown = prefersMarkdown(c.req.header('accept'));
    return sendDocument(c, { body: llmsTxt, contentType: markdown ? MARKDOWN_TYPE : 'text/plain; charset=utf-8', negotiated: true, headers: PUBLIC_CORS });
  });

  const sitemap = renderSitemap(config);
  app.get('/sitemap.xml', (c) => sendDocument(c, { body: sitemap, contentType: 'application/xml; charset=utf-8' }));
  const robots = renderRobotsTxt(config);
  app.get('/robots.txt', (c) => sendDocument(c, { body: robots, contentType: 'text/plain; charset=utf-8' }));
  app.get('/.well-known/security.txt', (c) => sendDocument(c, { body: renderSecurityTxt(config), contentType: 'text/plain; charset=utf-8' }));

  const json = (body: unknown) => `${JSON.stringify(body, null, 2)}\n`;
  const publicJson = (path: string, body: string, contentType = 'application/json; charset=utf-8') => {
    app.get(path, (c) => sendDocument(c, { body, contentType, cacheControl: 'public, max-age=3600', headers: PUBLIC_CORS }));
  };
  publicJson('/openapi.json', json(openApiDocument(config)));
  publicJson('/.well-known/mcp.json', json(serverJson(config)));
  publicJson('/.well-known/ai-catalog.json', json(aiCatalog(config)));
  publicJson('/.well-known/mcp/catalog.json', json(aiCatalog(config)));
  // Draft SEP-2127: the card lives at <streamable-http-url>/server-card, i.e. on the API host.
  publicJson('/mcp/server-card', json(serverCard(config)), SERVER_CARD_MEDIA_TYPE);

  const documentPaths = ['/llms.txt', '/openapi.json', '/.well-known/mcp.json', '/.well-known/ai-catalog.json', '/.well-known/mcp/catalog.json', '/mcp/server-card'];
  for (const path of documentPaths) app.options(path, (c) => c.body(null, 204, { ...PUBLIC_CORS, 'Access-Control-Max-Age': '86400' }));

  // Only GET and HEAD read the site; other methods on its paths are 405, not 404 (RFC 9110 §15.5.6).
  const allPaths = [...PAGES.flatMap((p) => [p.path, markdownPath(p)]), STYLESHEET_PATH, '/sitemap.xml', '/robots.txt', '/.well-known/security.txt', ...documentPaths];
  const methodNotAllowed = (c: Context) => c.body(null, 405, { Allow: 'GET, HEAD, OPTIONS' });
  for (const path of allPaths) app.on(['POST', 'PUT', 'PATCH', 'DELETE'], path, methodNotAllowed);
  // RFC 9110 §9.3.7: OPTIONS says which methods a page allows (documents answer CORS preflight above).
  for (const path of allPaths.filter((p) => !documentPaths.includes(p))) app.options(path, (c) => c.body(null, 204, { Allow: 'GET, HEAD, OPTIONS' }));

  return app;
}
