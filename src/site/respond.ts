// Conditional, cacheable responses for the site's documents: a strong ETag computed from the bytes
// (so each representation of a page has its own), If-None-Match → 304 (RFC 9110 §13.1.2), and
// `Vary: Accept` wherever the representation depends on Accept.
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The media type is hashed with the bytes, so two representations never share a tag. */
export function etagOf(contentType: string, body: string): string {
  return `"${createHash('sha256').update(contentType).update('\n').update(body).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 §13.1.2: weak comparison; `*` matches any current representation. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export type DocumentOptions = {
  body: string;
  contentType: string;
  status?: ContentfulStatusCode;
  /** The representation was chosen from Accept. */
  negotiated?: boolean;
  cacheControl?: string;
  /** Extra response headers (CORS, Link, CSP). */
  headers?: Record<string, string>;
};

export function sendDocument(c: Context, options: DocumentOptions): Response {
  const status = options.status ?? 200;
  const headers: Record<string, string> = { ...options.headers, 'Content-Type': options.contentType };
  if (options.negotiated) headers['Vary'] = 'Accept';
  if (status !== 200) {
    headers['Cache-Control'] = options.cacheControl ?? 'no-store';
    return c.body(options.body, status, headers);
  }
  const etag = etagOf(options.contentType, options.body);
  headers['ETag'] = etag;
  headers['Cache-Control'] = options.cacheControl ?? 'public, max-age=300';
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) {
    delete headers['Content-Type'];
    return c.body(null, 304, headers);
  }
  return c.body(options.body, 200, headers);
}

/** Discovery documents are public and read-only: any origin may fetch them (no credentials). */
export const PUBLIC_CORS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, If-None-Match',
};
