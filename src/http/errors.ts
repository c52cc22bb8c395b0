// Errors rendered in one place. Handlers throw typed errors; onError turns them into responses.
// Unknown errors become a 500 with the request id and nothing internal (no message, no stack).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './context.ts';
import { isStoreUnavailable } from '../store/errors.ts';
import { html, renderPage } from './html.ts';

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
export function isApiPath(path: string): boolean {
  return /^\/(oauth|mcp|api|\.well-known|healthz|readyz)(\/|$)/.test(path);
}

export function jsonError(c: Context<AppEnv>, status: ContentfulStatusCode, code: string, description: string, headers: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json({ error: code, error_description: description }, status);
}

export function onError(error: Error, c: Context<AppEnv>) {
  if (error instanceof HttpError) return jsonError(c, error.status, error.code, error.message, error.headers);
  // Hono's own HTTPException (e.g. from body-limit) carries a ready response.
  if ('getResponse' in error && typeof error.getResponse === 'function') return error.getResponse() as Response;
  // The database is down or refusing: 503 + Retry-After in the path's own format, not a 500.
  if (isStoreUnavailable(error)) {
    c.get('log').warn({ err: error instanceof Error ? error.message : String(error) }, 'database unavailable');
    const description = 'The service is temporarily unavailable; retry in a few seconds.';
    c.header('Retry-After', '5');
    c.header('Cache-Control', 'no-store');
    // The authorization and consent endpoints are pages a person sees, not JSON APIs.
    const browserPage = /^\/oauth\/(authorize|consent)(\/|$)/.test(c.req.path);
    if (isApiPath(c.req.path) && !browserPage) return jsonError(c, 503, 'temporarily_unavailable', description);
    return renderPage(c, { title: 'Temporarily unavailable', body: html`<h1>Temporarily unavailable</h1><p>${description}</p>`, status: 503, noindex: true });
  }
  c.get('log').error({ err: error }, 'unhandled error');
  const description = `An internal error occurred. Quote request id ${c.get('requestId')} when reporting it.`;
  if (isApiPath(c.req.path)) return jsonError(c, 500, 'server_error', description);
  return renderPage(c, { title: 'Something went wrong', body: html`<h1>Something went wrong</h1><p>${description}</p>`, status: 500, noindex: true });
}
