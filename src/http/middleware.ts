// Small named middleware factories applied to every request.
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { bodySizeLimit } from './body.ts';
import { html, renderPage } from './html.ts';
import { lazyChild, type Logger } from '../log.ts';
import type { AppEnv } from './context.ts';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** A request id on every response and log line; a well-formed incoming X-Request-Id is kept. */
export function requestId(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const id = incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', id);
    c.set('log', lazyChild(logger, { reqId: id }));
    c.header('X-Request-Id', id);
    await next();
  };
}

/**
 * One log line per request, with the request's id (written by the parent logger: no child logger
 * per request). The path is logged without its query: queries can carry codes.
 */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    if (!logger.isLevelEnabled('info')) return;
    logger.info(
      { reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 },
      'request',
    );
  };
}

/**
 * The baseline every response gets. HTML pages add their own Content-Security-Policy; this
 * default forbids everything, which suits JSON and plain responses.
 */
export function securityHeaders(options: { https: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'no-referrer');
    h.set('X-Frame-Options', 'DENY');
    h.set('Cross-Origin-Opener-Policy', 'same-origin');
    h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
    if (options.https) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}

/** Paths that enforce their own body limit in their protocol's format (OAuth JSON, MCP 413). */
const OWN_BODY_LIMIT = /^\/(oauth|mcp)(\/|$)/;
export const MAX_FORM_BODY_BYTES = 64 * 1024;

/**
 * Every other request body (sign-out, connected apps, the demo identity provider's forms, any
 * unknown path) is a small form: a declared body over the limit is refused before it is read, so a
 * client cannot make the service wait for, or buffer, a huge body.
 */
export function formBodyLimit(maxBytes = MAX_FORM_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limit = bodySizeLimit({
    maxSize: maxBytes,
    onError: (c) => {
      c.header('Connection', 'close');
      return renderPage(c, {
        title: 'Request too large',
        body: html`<h1>Request too large</h1><p>This form accepts at most ${Math.round(maxBytes / 1024)} KB.</p>`,
        status: 413,
        noindex: true,
      });
    },
  });
  return (c, next) => (OWN_BODY_LIMIT.test(c.req.path) ? next() : limit(c, next));
}
