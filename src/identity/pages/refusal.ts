// The one page for a refused sign-in: why, and what to do instead.
import type { Context } from 'hono';
import { html, renderPage } from '../../http/html.ts';
import type { SignInRefused } from '../refusal.ts';

const PERSONAL = new Set(['personal_account', 'personal_microsoft_account', 'google_no_hosted_domain']);

export function refusalPage(c: Context, refusal: SignInRefused, returnTo: string | null) {
  const q = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : '';
  const title = PERSONAL.has(refusal.reason)
    ? 'Personal accounts cannot sign in'
    : refusal.reason === 'not_a_member'
      ? 'Ask an administrator to add you'
      : 'Sign-in was not completed';
  return renderPage(c, {
    title: `${title} · Agent Access`,
    noindex: true,
    status: refusal.status,
    body: html`<h1>${title}</h1>
<p id="refusal" data-reason="${refusal.reason}">${refusal.message}</p>
${PERSONAL.has(refusal.reason)
  ? html`<p>Agent Access serves companies: each organization is its email domain. Sign in with the account
your employer gave you — Google Workspace, Microsoft Entra ID (work or school), or your company's single sign-on.</p>`
  : ''}
${refusal.admins.length > 0
  ? html`<p>Your organization's administrators can invite you:</p><ul>${refusal.admins.map((a) => html`<li><a href="mailto:${a}">${a}</a></li>`)}</ul>`
  : refusal.reason === 'not_a_member'
    ? html`<p>Ask your organization's administrator to add you.</p>`
    : ''}
<p>Other ways in:</p>
<ul>
<li><a href="/login_google/${q}">Sign in with a Google Workspace account</a></li>
<li><a href="/login_ms/${q}">Sign in with a Microsoft work or school account</a></li>
<li><a href="/signin${q}">Use your company's single sign-on</a></li>
</ul>`,
  });
}
