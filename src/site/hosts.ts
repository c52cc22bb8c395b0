// Host routing when SITE_URL's host differs from BASE_URL's (site.md): site routes answer on the
// site host, API routes on the API host. The hosts come from configuration; the request's Host is
// only compared with them, never used to build a URL.
import type { Context, MiddlewareHandler } from 'hono';
import type { Config } from '../config/load.ts';
import { siteNotFound } from './not-found.ts';
import { PAGES, markdownPath } from './pages.ts';
import { PUBLIC_CORS } from './respond.ts';

export type Hosts = { site: string; api: string; split: boolean };

export function hostsOf(config: Config): Hosts {
  const site = new URL(config.siteUrl).host.toLowerCase();
  const api = new URL(config.baseUrl).host.toLowerCase();
  return { site, api, split: site !== api };
}

/** @hono/node-server builds the request URL from the Host header; app.request() from its argument. */
export function requestHost(c: Context): string {
  try {
    return new URL(c.req.url).host.toLowerCase();
  } catch {
    return '';
  }
}

/** Documents that live on the site host only (pages, their Markdown twins, machine-readable files). */
export function siteOnlyPaths(): Set<string> {
  return new Set([
    ...PAGES.flatMap((page) => [page.path, markdownPath(page)]),
    '/llms.txt',
    '/sitemap.xml',
    '/openapi.json',
    '/.well-known/mcp.json',
    '/.well-known/ai-catalog.json',
    '/.well-known/mcp/catalog.json',
  ]);
}

// Served on both hosts: the stylesheet (sign-in and consent pages on the API host use it), robots,
// security.txt (RFC 9116 §3 is per host) and health checks. These belong to the API host:
const API_PREFIX = /^\/(oauth|mcp|signin|signout|welcome|demo-idp)(\/|$)|^\/account|^\/login_|^\/\.well-known\/oauth-/;
// People who type a sign-in address on the site host are sent to the API host.
const HUMAN_API_PAGE = /^\/((signin|welcome)(\/|$)|account|login_)/;
const METADATA = /^\/\.well-known\/oauth-(authorization-server|protected-resource)(\/|$)/;

function redirectTo(c: Context, origin: string): Response {
  const url = new URL(c.req.url);
  // 308 keeps the method; metadata must stay fetchable from browsers, so the redirect is CORS-open.
  return c.body(null, 308, { Location: `${origin}${url.pathname}${url.search}`, ...PUBLIC_CORS });
}

export function hostRouting(config: Config): MiddlewareHandler {
  const hosts = hostsOf(config);
  const sitePaths = siteOnlyPaths();
  const notFound = siteNotFound(config);
  return async (c, next) => {
    if (!hosts.split) return next();
    const onSite = requestHost(c) === hosts.site;
    const path = c.req.path;
    const readOnly = c.req.method === 'GET' || c.req.method === 'HEAD';
    if (onSite && API_PREFIX.test(path)) {
      // site.md: {SITE_URL}/.well-known/oauth-authorization-server redirects to the API's metadata.
      if (readOnly && (METADATA.test(path) || HUMAN_API_PAGE.test(path))) return redirectTo(c, config.baseUrl);
      return notFound(c);
    }
    if (!onSite && sitePaths.has(path)) {
      return readOnly ? redirectTo(c, config.siteUrl) : notFound(c);
    }
    return next();
  };
}
