// A small local OpenID issuer standing in for an outside provider (an SSO tenant, or Microsoft via
// a fetch that maps login.microsoftonline.com here). Each test decides what the next ID token
// looks like, so the relying party's checks (iss, aud, exp, nonce, tid) can be proven to refuse.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { s256 } from '../../support/pkce.ts';

export type NextToken = {
  /** Overrides of the ID token's claims (e.g. a wrong `iss`, `aud` or `nonce`). */
  claims?: Record<string, unknown>;
  /** Sign with a key the issuer does not publish. */
  foreignKey?: boolean;
};

export type FakeIssuer = {
  origin: string;
  /** The issuer string in discovery and (unless overridden) in ID tokens. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  next: NextToken;
  /** Claims of the account that "signs in" at the authorization endpoint. */
  account: Record<string, unknown>;
  close(): Promise<void>;
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(payload: Record<string, unknown>, key: KeyObject, kid: string): string {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

export type FakeIssuerOptions = {
  /** The issuer as published; `{origin}` is replaced by the server's origin. Default: the origin. */
  issuer?: string;
  /** Base of the endpoint URLs as published (default: the origin). */
  endpointBase?: string;
  clientId?: string;
  clientSecret?: string;
};

export async function startFakeIssuer(options: FakeIssuerOptions = {}): Promise<FakeIssuer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { nonce: string; challenge: string; redirectUri: string }>();
  let counter = 0;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', fake.origin);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const base = options.endpointBase ?? fake.origin;
    if (url.pathname.endsWith('/.well-known/openid-configuration')) {
      return json(200, {
        issuer: fake.issuer,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      });
    }
    if (url.pathname.endsWith('/jwks')) return json(200, { keys: [jwk] });
    if (url.pathname.endsWith('/authorize')) {
      const code = `code-${++counter}`;
      codes.set(code, {
        nonce: url.searchParams.get('nonce') ?? '',
        challenge: url.searchParams.get('code_challenge') ?? '',
        redirectUri: url.searchParams.get('redirect_uri') ?? '',
      });
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname.endsWith('/token') && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      if (!grant || s256(verifier) !== grant.challenge) return json(400, { error: 'invalid_grant' });
      if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret) return json(401, { error: 'invalid_client' });
      const at = Math.floor(Date.now() / 1000);
      const claims = { iss: fake.issuer, aud: fake.clientId, iat: at, exp: at + 300, nonce: grant.nonce, ...fake.account, ...fake.next.claims };
      const idToken = jwt(claims, fake.next.foreignKey ? foreign : privateKey, 'k1');
      return json(200, { access_token: `at-${counter}`, token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeIssuer = {
    origin,
    issuer: (options.issuer ?? '{origin}').replace('{origin}', origin),
    clientId: options.clientId ?? 'fake-client',
    clientSecret: options.clientSecret ?? 'fake-secret-value',
    next: {},
    account: {},
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return fake;
}
