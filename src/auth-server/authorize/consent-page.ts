// The consent page (AS-29): who is asking (name marked unverified), where the browser will be sent
// (the redirect host), a loud warning for loopback and app-scheme redirects, what is asked (scope, resource).
// Everything the client supplied is escaped by the template (AS-16).
import type { Context } from 'hono';
import { html, PAGE_CSP, renderPage } from '../../http/html.ts';
import type { SignedInUser } from '../../identity/contract.ts';
import type { OAuthClient } from '../../store/oauth-clients.ts';
import { isAllowedPrivateUseRedirect, isLoopbackRedirect } from '../redirect-uris.ts';
import type { PendingRequest } from './pending.ts';

const SCOPE_TEXT: Record<string, string> = {
  mcp: 'Read your meetings, transcripts, AI agent results, deals, qualification data, teams, reports and documents — only what you can see yourself. No changes, no administration.',
  offline_access: 'Stay connected after this session (refresh tokens), until you disconnect it.',
};

/**
 * Chromium applies form-action to the redirects that follow a form POST, so the page allows posting
 * to ourselves and the one redirect target the approval will 303 to (its exact origin). An IPv6
 * loopback literal cannot be written as a CSP host-source, so that case allows plain http.
 */
export function consentCsp(redirectUri: string): string {
  const url = new URL(redirectUri);
  // A private-use URI (cursor://…) has an opaque origin: allow its scheme only (CSP scheme-source).
  const target = isAllowedPrivateUseRedirect(redirectUri) ? url.protocol : url.hostname.startsWith('[') ? 'http:' : url.origin;
  return PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${target}`);
}

export type ConsentView = { user: SignedInUser; client: OAuthClient; pending: Extract<PendingRequest, { kind: 'request' }>; handle: string; csrf: string };

export function renderConsentPage(c: Context, v: ConsentView) {
  const redirect = new URL(v.pending.redirectUri);
  const onThisComputer = isLoopbackRedirect(v.pending.redirectUri) || isAllowedPrivateUseRedirect(v.pending.redirectUri);
  const redirectHost = isAllowedPrivateUseRedirect(v.pending.redirectUri) ? `${redirect.protocol}//${redirect.host}` : redirect.host;
  const documentHost = v.client.kind === 'metadata_document' ? new URL(v.client.clientId).host : undefined;
  const name = v.client.clientName ?? 'An unnamed application';
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Allow access?',
    noindex: true,
    csp: consentCsp(v.pending.redirectUri),
    body: html`<h1>Allow <q>${name}</q> to access your account?</h1>
<p class="badge">Unverified application: the name above was chosen by whoever registered it${documentHost ? html`; it is described by a document at <strong>${documentHost}</strong>` : ''}.</p>
<p>You are signed in as <strong>${v.user.email}</strong>.</p>
${onThisComputer
  ? html`<p class="warning" role="alert"><strong>Warning:</strong> after approval you will be sent to a program on <strong>this computer</strong> (${redirectHost}). Only approve if you just started connecting an application here yourself.</p>`
  : html`<p>After approval you will be sent to <strong>${redirectHost}</strong>.</p>`}
<h2>It will be able to</h2>
<ul>
${v.pending.scope.split(' ').map((s) => html`<li><code>${s}</code>: ${SCOPE_TEXT[s] ?? s}</li>`)}
</ul>
<p>Access applies to <code>${v.pending.resource}</code>. You can disconnect it at any time under <a href="/account/connected-apps">Connected apps</a>.</p>
<form method="post" action="/oauth/consent">
<input type="hidden" name="request" value="${v.handle}">
<input type="hidden" name="csrf_token" value="${v.csrf}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  });
}
