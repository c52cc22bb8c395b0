// POST /oauth/register (RFC 7591) and GET /oauth/register/:client_id (RFC 7592 §2.1 read), as
// pipelines of named steps.
import { Hono, type Context } from 'hono';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { createClient, findClient } from '../../store/oauth-clients.ts';
import { newId, now } from '../../store/ids.ts';
import { audit } from '../audit.ts';
import { InvalidClientMetadata, InvalidToken } from '../errors.ts';
import { noStore, openCors } from '../http/headers.ts';
import { enforce, limitByIp, type OAuthLimiters } from '../http/rate-limits.ts';
import { keyedHash, newSecret } from '../secrets.ts';
import { constantTimeEqual } from '../../crypto/constant-time.ts';
import { clientView } from './client-view.ts';
import { parseClientMetadata } from './client-metadata.ts';

export const MAX_REGISTRATION_BYTES = 64 * 1024;

/** AS-63: ≤ 64 KB of JSON. */
async function readJsonBody(c: Context): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new InvalidClientMetadata('The request body must be application/json');
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_REGISTRATION_BYTES) throw new InvalidClientMetadata(`The request body is larger than ${MAX_REGISTRATION_BYTES} bytes`);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidClientMetadata('The request body is not valid JSON');
  }
}

export function registrationRoutes(ctx: AppContext, limits: OAuthLimiters): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const hash = (value: string) => keyedHash(ctx.config.secrets.hash, value);

  app.use('/oauth/register', openCors(), noStore());
  app.use('/oauth/register/*', openCors(), noStore());

  app.post('/oauth/register', limitByIp({ limiter: limits.registerPerIp }, { limiter: limits.registerGlobal, key: 'all' }), async (c) => {
    const metadata = parseClientMetadata(await readJsonBody(c));
    const at = now();
    const secret = metadata.tokenEndpointAuthMethod === 'none' ? undefined : newSecret('clientSecret');
    const registrationToken = newSecret('registration');
    const client = await createClient(ctx.store.db, {
      clientId: newId('cli', at),
      kind: 'dynamic',
      ...metadata,
      secretHash: secret ? hash(secret) : null,
      registrationTokenHash: hash(registrationToken),
      metadataExpiresAt: null,
      createdAt: at,
    });
    await audit(ctx, c, { kind: 'client_registered', clientId: client.clientId, detail: { client_name: client.clientName, auth_method: client.tokenEndpointAuthMethod } });
    // RFC 7591 §3.2.1: the secret is returned once, here, and stored only as a keyed hash.
    return c.json({ ...clientView(ctx.config, client), ...(secret ? { client_secret: secret } : {}), registration_access_token: registrationToken }, 201);
  });

  // RFC 7592 §2.1: read with the registration access token as a bearer token.
  app.get('/oauth/register/:clientId', limitByIp({ limiter: limits.perIp }), async (c) => {
    const bearer = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer) throw new InvalidToken('A registration access token is required');
    await enforce(limits.perClient, c.req.param('clientId'));
    const client = await findClient(ctx.store.db, c.req.param('clientId'));
    if (!client || !constantTimeEqual(client.registrationTokenHash, hash(bearer))) throw new InvalidToken('The registration access token is not valid for this client');
    return c.json(clientView(ctx.config, client));
  });

  return app;
}
