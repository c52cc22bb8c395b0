// /account/connected-apps: the signed-in user's grants (client, scopes, created, last used) with a
// revoke button each; an admin also sees and can revoke every grant in the organization (AS-34).
import { Hono, type Context } from 'hono';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { html, renderPage } from '../../http/html.ts';
import type { BrowserIdentity, SignedInUser } from '../../identity/contract.ts';
import { listLiveGrants, type GrantListing } from '../../store/oauth-grants.ts';
import { now } from '../../store/ids.ts';
import { requestOrigin } from '../audit.ts';
import { revokeGrantAs } from './revoke-grant.ts';

const PATH = '/account/connected-apps';
const PURPOSE = 'connected-apps';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function table(rows: GrantListing[], csrf: string, withUser: boolean) {
  if (rows.length === 0) return html`<p>No connected applications.</p>`;
  return html`<table>
<thead><tr><th>Application</th>${withUser ? html`<th>User</th>` : ''}<th>Access</th><th>Connected</th><th>Last used</th><th></th></tr></thead>
<tbody>
${rows.map(
  (g) => html`<tr>
<td>${g.clientName ?? 'Unnamed application'} <small>(unverified)</small></td>${withUser ? html`<td>${g.userEmail ?? g.userId}</td>` : ''}
<td><code>${g.scope}</code></td><td>${day(g.createdAt)}</td><td>${day(g.lastUsedAt)}</td>
<td><form method="post" action="${PATH}/revoke"><input type="hidden" name="grant_id" value="${g.id}"><input type="hidden" name="csrf_token" value="${csrf}"><button type="submit">Disconnect</button></form></td>
</tr>`,
)}
</tbody>
</table>`;
}

export function connectedAppsRoutes(ctx: AppContext, identity: BrowserIdentity): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const signedIn = async (c: Context<AppEnv>): Promise<SignedInUser | null> => identity.currentUser(c);

  app.get(PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    const user = await signedIn(c);
    if (!user) return c.redirect(identity.signInUrl(PATH), 302);
    const at = now();
    const mine = await listLiveGrants(ctx.store.db, user.orgId, user.userId, at);
    const org = user.role === 'admin' ? (await listLiveGrants(ctx.store.db, user.orgId, undefined, at)).filter((g) => g.userId !== user.userId) : [];
    const csrf = await identity.issueCsrfToken(c, PURPOSE);
    return renderPage(c, {
      title: 'Connected apps',
      noindex: true,
      body: html`<h1>Connected apps</h1>
<p>Applications you allowed to read your data through the agent API. Disconnecting one ends its access at once.</p>
${table(mine, csrf, false)}
${user.role === 'admin' ? html`<h2>Everyone in your organization</h2>${table(org, csrf, true)}` : ''}`,
    });
  });

  app.post(`${PATH}/revoke`, async (c) => {
    const user = await signedIn(c);
    if (!user) return c.redirect(identity.signInUrl(PATH), 303);
    const form = await c.req.parseBody();
    const token = typeof form.csrf_token === 'string' ? form.csrf_token : '';
    if (!(await identity.verifyCsrfToken(c, PURPOSE, token))) {
      return renderPage(c, { title: 'Form expired', noindex: true, status: 400, body: html`<h1>The form has expired</h1><p><a href="${PATH}">Back to connected apps</a></p>` });
    }
    const grantId = typeof form.grant_id === 'string' ? form.grant_id : '';
    await revokeGrantAs(ctx, { kind: 'user', userId: user.userId, orgId: user.orgId, admin: user.role === 'admin' }, grantId, requestOrigin(c));
    return c.redirect(PATH, 303);
  });

  return app;
}
