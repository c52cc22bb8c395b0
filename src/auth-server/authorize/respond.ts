// The two ways an authorization request ends: a redirect to the client's validated redirect URI
// (always with `iss`, RFC 9207 / AS-26; `state` echoed once, exactly, AS-15), or a local page.
import type { Context } from 'hono';
import type { Config } from '../../config/load.ts';
import { html, renderPage } from '../../http/html.ts';
import type { OAuthError } from '../errors.ts';
import { issuerOf } from '../resource.ts';

export function redirectTo(config: Config, redirectUri: string, fields: Record<string, string | undefined>, state: string | undefined): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuerOf(config));
  return url.href;
}

/** AS-3, AS-12, AS-14: a 400 page on our origin, no redirect, nothing third-party, no framing. */
export function localErrorPage(c: Context, error: OAuthError) {
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Authorization request refused',
    noindex: true,
    status: 400,
    body: html`<h1>This authorization request cannot continue</h1>
<p>The application that sent you here made a request this server cannot accept, so you have not been sent back to it.</p>
<p><strong>${error.code}</strong>: ${error.message}</p>
<p>Close this tab and contact the application's developer if the problem persists.</p>`,
  });
}
