// Mounts the demo OpenID Providers under /demo-idp/<kind>/… and serves their one-field sign-in page.
// oidc-provider is a Koa app: it gets the raw Node request/response (@hono/node-server exposes them
// as c.env.incoming/outgoing), with the mount prefix moved from `url` to `originalUrl` as Express does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { html, renderPage } from '../../http/html.ts';
import type { IdentityService } from '../browser-identity.ts';
import { emailDomain } from '../email-policy.ts';
import { DEMO_IDP_PREFIX, type DemoKind } from './clients.ts';
import { createDemoIdp, isDemoKind } from './provider.ts';

type NodeBindings = { incoming: IncomingMessage & { originalUrl?: string }; outgoing: ServerResponse };

const LABELS: Record<DemoKind, string> = { google: 'Google', microsoft: 'Microsoft', sso: 'enterprise SSO' };

function nodeOf(c: Context): NodeBindings | null {
  const env = c.env as Partial<NodeBindings> | undefined;
  return env?.incoming && env.outgoing ? (env as NodeBindings) : null;
}

const LoginForm = z.object({ email: z.string().max(254), csrf_token: z.string().max(128) });

export function demoIdpRoutes(ctx: AppContext, identity: IdentityService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const demo = createDemoIdp(ctx);

  const kindOf = (c: Context) => {
    const kind = c.req.param('kind');
    return isDemoKind(kind) ? kind : null;
  };

  const page = async (c: Context, kind: DemoKind, uid: string, error?: string) =>
    renderPage(c, {
      title: `Demo ${LABELS[kind]} sign-in`,
      noindex: true,
      status: error ? 400 : 200,
      body: html`<h1>Demo ${LABELS[kind]} sign-in</h1>
<p>This is the built-in demo identity provider (development only). Type any email address: a work
address signs in or signs up; <code>anyone@gmail.com</code> behaves like a personal account.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${DEMO_IDP_PREFIX}/${kind}/interaction/${uid}">
<input type="hidden" name="csrf_token" value="${await identity.issueCsrfToken(c, `demo-idp:${uid}`)}">
<label for="email">Email</label>
<input type="email" id="email" name="email" required autocomplete="email" autofocus>
<button type="submit">Sign in</button>
</form>`,
    });

  app.get(`${DEMO_IDP_PREFIX}/:kind/interaction/:uid`, async (c) => {
    const kind = kindOf(c);
    const node = nodeOf(c);
    if (!kind || !node) return c.notFound();
    const details = await demo.provider(kind).interactionDetails(node.incoming, node.outgoing).catch(() => null);
    if (!details || details.uid !== c.req.param('uid')) return c.text('This demo sign-in has expired. Start again.', 400);
    if (details.prompt.name === 'consent' && details.session?.accountId) {
      // First-party demo: consent is implied (normally loadExistingGrant already covers it).
      const provider = demo.provider(kind);
      const grant = new provider.Grant({ clientId: String(details.params.client_id), accountId: details.session.accountId });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      return c.redirect(await provider.interactionResult(node.incoming, node.outgoing, { consent: { grantId } }, { mergeWithLastSubmission: true }), 303);
    }
    return page(c, kind, details.uid);
  });

  app.post(`${DEMO_IDP_PREFIX}/:kind/interaction/:uid`, async (c) => {
    const kind = kindOf(c);
    const node = nodeOf(c);
    if (!kind || !node) return c.notFound();
    const provider = demo.provider(kind);
    const details = await provider.interactionDetails(node.incoming, node.outgoing).catch(() => null);
    if (!details || details.uid !== c.req.param('uid')) return c.text('This demo sign-in has expired. Start again.', 400);
    const form = LoginForm.safeParse(await c.req.parseBody());
    if (!form.success || !(await identity.verifyCsrfToken(c, `demo-idp:${details.uid}`, form.data.csrf_token))) {
      return page(c, kind, details.uid, 'The form expired. Please try again.');
    }
    const email = form.data.email.trim().toLowerCase();
    if (!emailDomain(email)) return page(c, kind, details.uid, 'Enter an email address.');
    const sub = demo.remember(kind, email);
    const to = await provider.interactionResult(node.incoming, node.outgoing, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
    return c.redirect(to, 303);
  });

  app.all(`${DEMO_IDP_PREFIX}/:kind/*`, async (c) => {
    const kind = kindOf(c);
    const node = nodeOf(c);
    if (!kind || !node) return c.notFound();
    const prefix = `${DEMO_IDP_PREFIX}/${kind}`;
    const { incoming, outgoing } = node;
    incoming.originalUrl = incoming.url;
    incoming.url = (incoming.url ?? '/').slice(prefix.length) || '/';
    await demo.provider(kind).callback()(incoming, outgoing);
    return RESPONSE_ALREADY_SENT;
  });

  return app;
}
