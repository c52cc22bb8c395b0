// Anchor of W4: panva's oidc-provider (the OpenID-certified reference) configured for the same
// refresh flow as the service: a public client (token_endpoint_auth_method none), opaque access
// tokens for one resource (`…/mcp`, scope `mcp`), refresh tokens rotated on every use. Storage:
// with OIDC_SQLITE=<path>, a node:sqlite adapter (the service's database kind and pragmas);
// otherwise an unbounded in-memory map (its own development adapter is a 1,000-entry LRU that
// evicts live grants under load; it ships no SQL adapter). GET /bench/tokens?count=N mints N fresh refresh tokens through its own models,
// the way its authorization_code grant would; it exists only in this anchor.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { MapAdapter, openAdapterDatabase, SqliteAdapter } from './oidc-sqlite-adapter.ts';

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const resource = `${issuer}/mcp`;
const CLIENT_ID = 'agent-access-bench';
if (process.env.OIDC_SQLITE) openAdapterDatabase(process.env.OIDC_SQLITE);

// The typings in src/identity/demo-idp cover only the demo IdP's slice; this is the rest we use.
type Model = { save(): Promise<string> };
type BenchProvider = {
  Client: { find(id: string): Promise<unknown> };
  Grant: new (init: { accountId: string; clientId: string }) => Model & { addOIDCScope(s: string): void; addResourceScope(r: string, s: string): void };
  RefreshToken: new (init: Record<string, unknown>) => Model;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  on(event: 'server_error', listener: (ctx: unknown, error: Error) => void): void;
};

const configuration = {
  adapter: process.env.OIDC_SQLITE ? SqliteAdapter : MapAdapter,
  clients: [
    {
      client_id: CLIENT_ID,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['http://127.0.0.1/callback'],
      application_type: 'native',
    },
  ],
  scopes: ['openid', 'offline_access', 'mcp'],
  rotateRefreshToken: true,
  routes: { token: '/oauth/token' },
  findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
  features: {
    devInteractions: { enabled: false },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: 'mcp', accessTokenFormat: 'opaque', accessTokenTTL: 3600 }),
    },
  },
  ttl: { AccessToken: 3600, RefreshToken: 30 * 24 * 3600, Grant: 90 * 24 * 3600 },
};
const provider = new Provider(issuer, configuration as never) as unknown as BenchProvider;
provider.on('server_error', (_ctx, error) => {
  process.stderr.write(`oidc-provider server_error: ${error.message}\n`);
});

async function mintRefreshTokens(count: number): Promise<string[]> {
  const client = await provider.Client.find(CLIENT_ID);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const accountId = 'bench-user';
    const grant = new provider.Grant({ accountId, clientId: CLIENT_ID });
    grant.addOIDCScope('offline_access');
    grant.addResourceScope(resource, 'mcp');
    const grantId = await grant.save();
    const rt = new provider.RefreshToken({ client, accountId, grantId, scope: 'offline_access mcp', resource, gty: 'authorization_code', iiat: Math.floor(Date.now() / 1000), rotations: 0 });
    tokens.push(await rt.save());
  }
  return tokens;
}

const callback = provider.callback();
createServer((req, res) => {
  const url = new URL(req.url ?? '/', issuer);
  if (req.method === 'GET' && url.pathname === '/healthz') {
    res.writeHead(200).end('ok');
    return;
  }
  if (req.method === 'GET' && url.pathname === '/bench/tokens') {
    mintRefreshTokens(Math.min(10_000, Number(url.searchParams.get('count') ?? '1'))).then(
      (tokens) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ clientId: CLIENT_ID, tokens })),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
    return;
  }
  callback(req, res);
}).listen(port, '127.0.0.1');
