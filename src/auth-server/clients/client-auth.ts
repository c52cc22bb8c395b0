// Client authentication at the token and revocation endpoints (RFC 6749 §2.3, AS-36…AS-40), as
// named steps: read the credentials, refuse mixed methods, find the client, check the secret.
import type { Context } from 'hono';
import type { AppContext } from '../../http/context.ts';
import { renewClientLease, type OAuthClient } from '../../store/oauth-clients.ts';
import { InvalidClient, InvalidRequest } from '../errors.ts';
import type { Params } from '../http/params.ts';
import { keyedHash } from '../secrets.ts';
import { constantTimeEqual } from '../../crypto/constant-time.ts';
import { ClientMetadataError } from './metadata-document.ts';
import { resolveClient } from './resolve.ts';

export type Credentials = { clientId: string; secret: string | undefined; basic: boolean };
export type AuthenticatedClient = { client: OAuthClient; basic: boolean };

/** RFC 6749 App. B: Basic credentials are form-url-encoded before base64; decode, tolerating naive clients. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

function basicCredentials(header: string | undefined): { clientId: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

/** Step 1: which client claims to be calling, and with what. One method per request (AS-37). */
export function readCredentials(c: Context, params: Params): Credentials {
  const header = c.req.header('authorization');
  const usedBasic = header !== undefined && /^Basic\b/i.test(header);
  const basic = usedBasic ? basicCredentials(header) : undefined;
  if (usedBasic && !basic) throw new InvalidClient('The Basic credentials are malformed', { basic: true });
  const bodyId = params.get('client_id');
  const bodySecret = params.get('client_secret');
  if (basic) {
    if (bodySecret !== undefined) throw new InvalidRequest('Use one client authentication method: Basic or client_secret in the body, not both');
    if (bodyId !== undefined && bodyId !== basic.clientId) throw new InvalidRequest('client_id in the body differs from the Basic credentials');
    return { clientId: basic.clientId, secret: basic.secret, basic: true };
  }
  if (bodyId === undefined) throw new InvalidClient('Client authentication is required (client_id is missing)');
  return { clientId: bodyId, secret: bodySecret, basic: false };
}

/** Steps 2 and 3: the client exists, and a confidential client proved its secret (AS-40). */
export async function authenticateClient(ctx: AppContext, credentials: Credentials): Promise<AuthenticatedClient> {
  const fail = (why: string) => new InvalidClient(why, { basic: credentials.basic });
  let client: OAuthClient | undefined;
  try {
    client = await resolveClient(ctx, credentials.clientId);
  } catch (error) {
    if (error instanceof ClientMetadataError) throw fail(error.message);
    throw error;
  }
  if (!client) throw fail('Client authentication failed');
  if (client.tokenEndpointAuthMethod === 'none') {
    // A public client has no secret; one that sends a secret anyway is confused, not authenticated.
    if (credentials.secret !== undefined && credentials.secret !== '') throw fail('Client authentication failed');
  } else {
    // AS-60: either secret method is accepted for a secret client, whatever it registered (P13).
    if (!credentials.secret || !constantTimeEqual(client.secretHash, keyedHash(ctx.config.secrets.hash, credentials.secret))) throw fail('Client authentication failed');
  }
  await renewClientLease(ctx.store.db, client, Date.now());
  return { client, basic: credentials.basic };
}
