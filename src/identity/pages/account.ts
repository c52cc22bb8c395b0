// The welcome page (after a sign-in that did not come from an OAuth request), the account page,
// and the page for an organization whose trial has ended.
import type { Context } from 'hono';
import { html, renderPage } from '../../http/html.ts';
import type { OrganizationRecord } from '../../store/organizations.ts';
import type { User } from '../../store/users.ts';
import { connectSnippets } from './connect-snippets.ts';

const day = (ms: number | null) => (ms === null ? '—' : new Date(ms).toISOString().slice(0, 10));

function licenseText(org: OrganizationRecord): string {
  const l = org.license;
  if (l.plan === 'paid') return `Paid${l.seats ? ` (${l.seats} seats)` : ''}`;
  if (l.plan === 'trial') return `Trial, ends ${day(l.trialEndsAt)}`;
  return 'Expired';
}

export function welcomePage(c: Context, user: User, org: OrganizationRecord, mcpUrl: string, newOrganization: boolean) {
  return renderPage(c, {
    title: 'Welcome · Agent Access',
    noindex: true,
    body: html`<h1>Welcome, ${user.name}</h1>
<p>${newOrganization ? html`We created <strong id="org-name">${org.name}</strong> for your domain and made you its administrator.` : html`You are signed in to <strong id="org-name">${org.name}</strong> as ${user.role}.`}</p>
${org.license.plan === 'trial' ? html`<p id="trial">Your free trial runs until <strong>${day(org.license.trialEndsAt)}</strong>.</p>` : ''}
${connectSnippets(mcpUrl)}
<p><a href="/account">Your account</a></p>`,
  });
}

export function accountPage(c: Context, user: User, org: OrganizationRecord, signOutCsrf: string) {
  return renderPage(c, {
    title: 'Your account · Agent Access',
    noindex: true,
    body: html`<h1>Your account</h1>
<dl>
<dt>Name</dt><dd id="account-name">${user.name}</dd>
<dt>Email</dt><dd id="account-email">${user.email}</dd>
<dt>Organization</dt><dd id="account-org">${org.name}</dd>
<dt>Role</dt><dd id="account-role">${user.role}</dd>
<dt>License</dt><dd id="account-license">${licenseText(org)}</dd>
</dl>
<p><a href="/account/connected-apps">Connected apps</a>: the agents you allowed to act for you, and how to revoke them.</p>
<form method="post" action="/signout">
<input type="hidden" name="csrf_token" value="${signOutCsrf}">
<button type="submit">Sign out</button>
</form>`,
  });
}

export function trialExpiredPage(c: Context, org: OrganizationRecord) {
  return renderPage(c, {
    title: 'Your trial has ended · Agent Access',
    noindex: true,
    status: 403,
    body: html`<h1>Your trial has ended</h1>
<p id="refusal" data-reason="license_expired">The Agent Access trial of <strong>${org.name}</strong> ended on ${day(org.license.trialEndsAt)}.
Agents cannot read your organization's data until an administrator upgrades the license.</p>
<p>Contact your account team to continue. <a href="/account">Your account</a></p>`,
  });
}
