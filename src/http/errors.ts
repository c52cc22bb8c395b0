// Errors rendered in one place. Handlers throw typed errors; onError turns them into responses.
// Unknown errors become a 500 with the request id and nothing internal (no message, no stack).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './context.ts';
import { isStoreUnavailable } from '../store/errors.ts';
import { HTML, JSON_TYPE, negotiate } from './negotiate.ts';
import { html, renderPage, type Html } from './html.ts';

export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: ContentfulStatusCode, code: string, description: string, headers: Record<string, string> = {}) {
    super(description);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** Paths that speak JSON to programs rather than HTML to people. */
const API_PATH = /^\/(oauth|mcp|api|\.well-known|healthz|readyz)(\/|$)/;
/** Under /oauth, but pages a person's browser is sent to (RFC 6749 §3.1: the user-agent, not the client). */
const PEOPLE_PAGE = /^\/oauth\/(authorize|consent)(\/|$)/;

export type ErrorFormat = 'html' | 'json';

/** The format a route kind fixes, or undefined where Accept decides. */
function formatOfRoute(path: string): ErrorFormat | undefined {
  if (PEOPLE_PAGE.test(path)) return 'html';
  if (API_PATH.test(path)) return 'json';
  return undefined;
}

/**
 * The one decision of how a failure is answered. By route kind first: the authorization and consent
 * pages answer people with HTML, the API paths answer programs in their protocol's JSON. Everything
 * else (site, sign-in, account pages) is HTML unless Accept prefers JSON, as for the site's 404.
 */
export function errorFormat(c: Context): ErrorFormat {
  return formatOfRoute(c.req.path) ?? (negotiate(c.req.header('accept'), [HTML, JSON_TYPE]) === JSON_TYPE ? 'json' : 'html');
}

export function jsonError(c: Context<AppEnv>, status: ContentfulStatusCode, code: string, description: string, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json({ error: code, error_description: description }, status);
}

type ErrorAnswer = { status: ContentfulStatusCode; code: string; description: string; headers?: Record<string, string>; title: string; page: Html };

/** An error in the format `errorFormat` picks: the protocol's JSON, or a page (noindex, no framing, no third party). */
function answer(c: Context<AppEnv>, e: ErrorAnswer) {
  if (formatOfRoute(c.req.path) === undefined) c.header('Vary', 'Accept');
  if (errorFormat(c) === 'json') return jsonError(c, e.status, e.code, e.description, e.headers);
  for (const [name, value] of Object.entries(e.headers ?? {})) c.header(name, value);
  return renderPage(c, { title: e.title, body: e.page, status: e.status, noindex: true });
}

export function onError(error: Error, c: Context<AppEnv>) {
  if (error instanceof HttpError) {
    const { status, code, message, headers } = error;
    return answer(c, { status, code, description: message, headers, title: 'Request refused', page: html`<h1>This request cannot continue</h1><p><strong>${code}</strong>: ${message}</p>` });
  }
  // Hono's own HTTPException carries a ready response.
  if ('getResponse' in error && typeof error.getResponse === 'function') return error.getResponse() as Response;
  c.header('Cache-Control', 'no-store');
  // The database is down or refusing: 503 + Retry-After in the path's own format, not a 500.
  if (isStoreUnavailable(error)) {
    c.get('log').warn({ err: error instanceof Error ? error.message : String(error) }, 'database unavailable');
    const description = 'The service is temporarily unavailable; retry in a few seconds.';
    const page = html`<h1>Temporarily unavailable</h1><p>${description}</p>`;
    return answer(c, { status: 503, code: 'temporarily_unavailable', description, headers: { 'Retry-After': '5' }, title: 'Temporarily unavailable', page });
  }
  c.get('log').error({ err: error }, 'unhandled error');
  const description = `An internal error occurred. Quote request id ${c.get('requestId')} when reporting it.`;
  return answer(c, { status: 500, code: 'server_error', description, title: 'Something went wrong', page: html`<h1>Something went wrong</h1><p>${description}</p>` });
}
