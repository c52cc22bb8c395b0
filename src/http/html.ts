// Server-rendered pages for people: one layout, escaped by construction (hono/html escapes every
// interpolated value unless it is itself an html`` fragment), one stylesheet, no third-party assets.
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export { html };
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Pages for people: no framing, no referrer, nothing loaded from elsewhere. */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "script-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export type PageOptions = {
  title: string;
  body: Html;
  status?: ContentfulStatusCode;
  /** Extra <head> content (e.g. a <link rel="alternate">). */
  head?: Html;
  /** Add <meta name="robots" content="noindex"> (errors, sign-in, consent). */
  noindex?: boolean;
  /** Override the default CSP (e.g. a consent form that posts then redirects off-site). */
  csp?: string;
  /** Site navigation, rendered in a <header> landmark before <main>. */
  header?: Html;
  /** Rendered in a <footer> landmark after <main>. */
  footer?: Html;
};

export const STYLESHEET_PATH = '/assets/site.css';

/** The whole document for `options`, without sending it (for callers that compute ETags). */
export function pageHtml(options: PageOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.noindex ? html`<meta name="robots" content="noindex">` : ''}
<title>${options.title}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
${options.head ?? ''}
</head>
<body>
${options.header ? html`<a class="skip-link" href="#content">Skip to content</a>
<header>${options.header}</header>` : ''}
<main id="content">
${options.body}
</main>
${options.footer ? html`<footer>${options.footer}</footer>` : ''}
</body>
</html>`;
}

export function renderPage(c: Context, options: PageOptions) {
  c.header('Content-Security-Policy', options.csp ?? PAGE_CSP);
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer');
  return c.html(pageHtml(options), options.status ?? 200);
}
