// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): a client_id that is
// an https URL names a JSON document describing the client. Fetched safely, validated, and cached
// as an oauth_clients row for as long as its Cache-Control allows (≤ 24 h).
import { z } from 'zod';
import type { AppContext } from '../../http/context.ts';
import { findClient, upsertClient, type OAuthClient } from '../../store/oauth-clients.ts';
import { now } from '../../store/ids.ts';
import { parseClientMetadata } from '../register/client-metadata.ts';
import { fetchJsonDocument } from './safe-fetch.ts';

export const MAX_CACHE_SECONDS = 24 * 3600;
const DEFAULT_CACHE_SECONDS = 3600;

export class ClientMetadataError extends Error {
  override name = 'ClientMetadataError';
}

/** Whether this client_id names a metadata document this server would fetch. */
export function metadataDocumentUrl(ctx: AppContext, clientId: string): URL | undefined {
  // The URL must serialize back to the client_id exactly, so its scheme is written in lower case:
  // our own `cli_…` ids (every token request) are told apart without parsing.
  if (!clientId.startsWith('https://') && !clientId.startsWith('http://')) return undefined;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return undefined;
  }
  const devLocal = ctx.config.oauth.allowHttpLocalhostClientMetadata && url.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(url.hostname);
  if (url.protocol !== 'https:' && !devLocal) return undefined;
  // A path is required, and no fragment, credentials or dot segments.
  if (url.pathname === '/' || url.hash || clientId.includes('#') || url.username || url.password || /\/\.\.?(\/|$)/.test(clientId)) return undefined;
  if (url.href !== clientId) return undefined;
  return url;
}

function cacheSeconds(cacheControl: string | undefined): number {
  if (!cacheControl) return DEFAULT_CACHE_SECONDS;
  if (/(^|,)\s*(no-store|no-cache)\b/i.test(cacheControl)) return 0;
  const maxAge = /max-age\s*=\s*(\d+)/i.exec(cacheControl)?.[1];
  return Math.min(maxAge ? Number(maxAge) : DEFAULT_CACHE_SECONDS, MAX_CACHE_SECONDS);
}

const DocumentShape = z.looseObject({ client_id: z.string(), token_endpoint_auth_method: z.string().optional() });

/** The client a metadata-document client_id describes, from cache or freshly fetched. */
export async function resolveMetadataDocumentClient(ctx: AppContext, url: URL): Promise<OAuthClient> {
  const clientId = url.href;
  const cached = await findClient(ctx.store.db, clientId);
  const at = now();
  if (cached && cached.kind === 'metadata_document' && (cached.metadataExpiresAt ?? 0) > at) return cached;

  let fetched;
  try {
    fetched = await fetchJsonDocument(url, { allowLoopback: ctx.config.oauth.allowHttpLocalhostClientMetadata });
  } catch (error) {
    throw new ClientMetadataError(`The client metadata document could not be fetched: ${error instanceof Error ? error.message : 'unknown error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(fetched.body);
  } catch {
    throw new ClientMetadataError('The client metadata document is not valid JSON');
  }
  const shape = DocumentShape.safeParse(json);
  if (!shape.success) throw new ClientMetadataError('The client metadata document has no client_id');
  if (shape.data.client_id !== clientId) throw new ClientMetadataError('The client_id inside the metadata document differs from its URL');
  const method = shape.data.token_endpoint_auth_method;
  if (method === 'client_secret_basic' || method === 'client_secret_post') {
    throw new ClientMetadataError('A client metadata document cannot use a shared secret');
  }
  let metadata;
  try {
    // Public client: any other method (private_key_jwt) is not supported here, so PKCE carries it.
    metadata = parseClientMetadata({ ...shape.data, token_endpoint_auth_method: 'none' });
  } catch (error) {
    throw new ClientMetadataError(`The client metadata document is invalid: ${error instanceof Error ? error.message : 'unknown'}`);
  }
  return upsertClient(ctx.store.db, {
    clientId,
    kind: 'metadata_document',
    ...metadata,
    secretHash: null,
    registrationTokenHash: null,
    metadataExpiresAt: at + cacheSeconds(fetched.cacheControl) * 1000,
  });
}
