// The sign-in page: Google, Microsoft, and single sign-on by work email (plus the demo note in development).
import type { Context } from 'hono';
import { html, PAGE_CSP, renderPage } from '../../http/html.ts';

// The SSO form submits here (GET /login_sso/), which redirects to the organization's IdP; browsers
// apply form-action to that redirect too (CSP3 §6.3.2.2), so the IdP's origin must be allowed.
const SIGN_IN_CSP = (http: boolean) => PAGE_CSP.replace("form-action 'self'", `form-action 'self' https:${http ? ' http:' : ''}`);

export type SignInPageOptions = {
  returnTo: string | null;
  demo: boolean;
  /** Which of Google and Microsoft are configured (real credentials, or the demo provider). */
  available: { google: boolean; microsoft: boolean };
  /** Development on http: SSO issuers may be http too. */
  allowHttpIssuers: boolean;
  signedInAs: string | null;
  error?: string;
  status?: 200 | 400 | 404;
};

export function signInPage(c: Context, o: SignInPageOptions) {
  const q = o.returnTo ? `?return_to=${encodeURIComponent(o.returnTo)}` : '';
  return renderPage(c, {
    title: 'Sign in · Agent Access',
    noindex: true,
    csp: SIGN_IN_CSP(o.allowHttpIssuers),
    status: o.status ?? 200,
    body: html`<h1>Sign in to Agent Access</h1>
${o.signedInAs ? html`<p>You are signed in as <strong>${o.signedInAs}</strong>. <a href="/account">Your account</a></p>` : ''}
<p>Use your <strong>work</strong> account. Personal accounts (Gmail, Outlook.com, …) are not accepted.
A new company domain starts its own organization with a free trial.</p>
${o.error ? html`<p class="error" role="alert">${o.error}</p>` : ''}
<ul class="sign-in-options">
${o.available.google ? html`<li><a class="button" id="signin-google" href="/login_google/${q}">Sign in with Google</a></li>` : ''}
${o.available.microsoft ? html`<li><a class="button" id="signin-microsoft" href="/login_ms/${q}">Sign in with Microsoft</a></li>` : ''}
</ul>
<h2>Single sign-on</h2>
<form method="get" action="/login_sso/">
${o.returnTo ? html`<input type="hidden" name="return_to" value="${o.returnTo}">` : ''}
<label for="sso-email">Work email</label>
<input type="email" id="sso-email" name="email" required autocomplete="email">
<button type="submit">Continue with SSO</button>
</form>
${o.demo
  ? html`<p class="note">Development: the built-in <strong>demo identity provider</strong> stands in for Google, Microsoft
and SSO. Type any email on its page; <code>anyone@gmail.com</code> is treated as a personal account.</p>`
  : ''}`,
  });
}
