// One way to find a client by client_id: a registered row, or a metadata document (fetched on demand).
import type { AppContext } from '../../http/context.ts';
import { findClient, type OAuthClient } from '../../store/oauth-clients.ts';
import { metadataDocumentUrl, resolveMetadataDocumentClient } from './metadata-document.ts';

/** The client, or undefined when unknown. Metadata-document failures throw ClientMetadataError. */
export async function resolveClient(ctx: AppContext, clientId: string): Promise<OAuthClient | undefined> {
  // Ours are `cli_…` and metadata documents are https URLs: a control character (NUL, which
  // PostgreSQL refuses in text) names no client.
  if (clientId.length > 2048 || /[\u0000-\u001f\u007f]/.test(clientId)) return undefined;
  const url = metadataDocumentUrl(ctx, clientId);
  if (url) return resolveMetadataDocumentClient(ctx, url);
  return findClient(ctx.store.db, clientId);
}
