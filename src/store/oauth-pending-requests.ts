// Validated authorization requests waiting for sign-in and consent. The browser carries only an
// opaque handle; the request itself is re-loaded from here (AS-30).
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export type PendingRow = { handleHash: string; clientId: string; request: string; createdAt: number; expiresAt: number };

export async function insertPendingRequest(db: Kysely<Database>, p: PendingRow): Promise<void> {
  await db
    .insertInto('oauth_pending_requests')
    .values({ handle_hash: p.handleHash, client_id: p.clientId, request: p.request, created_at: p.createdAt, expires_at: p.expiresAt, consumed_at: null })
    .execute();
}

/** The stored request text while the handle is unexpired and unused. */
export async function findPendingRequest(db: Kysely<Database>, handleHash: string, at: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('oauth_pending_requests')
    .select('request')
    .where('handle_hash', '=', handleHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return row?.request;
}

/** Single use: true for exactly one caller. */
export async function consumePendingRequest(db: Kysely<Database>, handleHash: string, at: number): Promise<boolean> {
  const r = await db
    .updateTable('oauth_pending_requests')
    .set({ consumed_at: at })
    .where('handle_hash', '=', handleHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function deletePendingRequestsExpiredBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const r = await db.deleteFrom('oauth_pending_requests').where('expires_at', '<', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
