// /sitemap.xml (sitemaps.org protocol 0.9) and /robots.txt that points to it. No <lastmod>: the
// sources carry no trustworthy last-change date, and the protocol wants the real one or none.
import type { Config } from '../config/load.ts';
import { PAGES } from './pages.ts';

const xmlEscape = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] ?? ch);

export function sitemapUrls(config: Config): string[] {
  return PAGES.map((page) => (page.path === '/' ? `${config.siteUrl}/` : `${config.siteUrl}${page.path}`));
}

export function renderSitemap(config: Config): string {
  const urls = sitemapUrls(config).map((loc) => `  <url><loc>${xmlEscape(loc)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/** Crawlers may read the site; sign-in, consent and account pages are not for indexing. */
export function renderRobotsTxt(config: Config): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /oauth/',
    'Disallow: /signin',
    'Disallow: /account',
    'Disallow: /login_',
    'Disallow: /demo-idp/',
    '',
    `Sitemap: ${config.siteUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
