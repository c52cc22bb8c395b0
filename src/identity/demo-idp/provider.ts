// The demo OpenID Providers (oidc-provider), one per issuer it stands in for, built lazily from
// config.baseUrl. Development and tests only: config refuses DEMO_IDP with APP_ENV=production.
import { generateKeyPairSync } from 'node:crypto';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { AppContext } from '../../http/context.ts';
import { emailPolicy } from '../email-policy.ts';
import { CALLBACK_PATHS } from '../providers/registry.ts';
import { keyedHash } from '../secrets.ts';
import { demoClaims, demoSubject } from './accounts.ts';
import { DemoMemoryAdapter } from './memory-adapter.ts';
import { DEMO_IDP_PREFIX, DEMO_KINDS, demoClientId, demoClientSecret, demoIssuer, type DemoKind } from './clients.ts';

export type DemoIdp = {
  provider(kind: DemoKind): Provider;
  /** Remembers who typed which email, so the token endpoint can release the right claims. */
  remember(kind: DemoKind, email: string): string;
};

const callbackFor = (kind: DemoKind) => CALLBACK_PATHS[kind];

export function createDemoIdp(ctx: AppContext): DemoIdp {
  const { config } = ctx;
  const policy = emailPolicy(config.freeEmailDomainsAllowed);
  const accounts = new Map<string, string>(); // `${kind}:${sub}` → email
  const providers = new Map<DemoKind, Provider>();
  let signingKey: Record<string, unknown> | undefined;

  const key = () => {
    signingKey ??= {
      ...(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
      kid: 'demo-1',
      alg: 'RS256',
      use: 'sig',
    };
    return signingKey;
  };

  const build = (kind: DemoKind): Provider => {
    const configuration: Configuration = {
      adapter: DemoMemoryAdapter,
      clients: [
        {
          client_id: demoClientId(kind),
          client_secret: demoClientSecret(config.secrets.hash, kind),
          redirect_uris: [`${config.baseUrl}${callbackFor(kind)}`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [key()] as never },
      cookies: { keys: [keyedHash(config.secrets.hash, 'demo-idp-cookies', kind)] },
      claims: {
        openid: ['sub', 'hd', 'tid', 'oid', 'xms_edov'],
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
      },
      scopes: ['openid', 'email', 'profile'],
      responseTypes: ['code'],
      // Release profile and email claims in the ID token, as Google and Microsoft do.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      // Short-lived artifacts: a demo sign-in takes seconds (seconds; oidc-provider warns without these).
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `${DEMO_IDP_PREFIX}/${kind}/interaction/${interaction.uid}` },
      findAccount: async (_ctx, sub) => {
        const email = accounts.get(`${kind}:${sub}`);
        if (!email) return undefined;
        return { accountId: sub, claims: async () => ({ ...demoClaims(kind, email, policy), sub }) };
      },
      // First-party demo: no consent screen; the grant covers what was asked.
      loadExistingGrant: async (koa: KoaContextWithOIDC) => {
        const { oidc } = koa;
        const existing = oidc.result?.consent?.grantId || oidc.session?.grantIdFor(oidc.client!.clientId);
        if (existing) return oidc.provider.Grant.find(existing);
        if (!oidc.session?.accountId) return undefined;
        const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session.accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      renderError: async (koa, out) => {
        koa.type = 'text/plain; charset=utf-8';
        koa.body = `Demo identity provider error: ${String(out.error)}${out.error_description ? ` (${String(out.error_description)})` : ''}`;
      },
    };
    const provider = new Provider(demoIssuer(config.baseUrl, kind), configuration);
    // An https BASE_URL in development means a TLS-terminating proxy or tunnel in front; the demo
    // provider must see the request as secure to set its cookies. Never in production (config).
    if (config.baseUrl.startsWith('https://')) provider.proxy = true;
    return provider;
  };

  return {
    provider(kind) {
      let p = providers.get(kind);
      if (!p) {
        p = build(kind);
        providers.set(kind, p);
      }
      return p;
    },
    remember(kind, email) {
      const sub = demoSubject(kind, email);
      accounts.set(`${kind}:${sub}`, email);
      return sub;
    },
  };
}

export const isDemoKind = (value: string | undefined): value is DemoKind => DEMO_KINDS.includes(value as DemoKind);
