// Remembered consents: per (user, client, redirect URI, resource), the scopes the user approved.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export type ConsentKey = { orgId: string; userId: string; clientId: string; redirectUri: string; resource: string };

export async function findConsentScope(db: Kysely<Database>, k: ConsentKey): Promise<string | undefined> {
  const row = await db
    .selectFrom('oauth_consents')
    .select('scope')
    .where('org_id', '=', k.orgId)
    .where('user_id', '=', k.userId)
    .where('client_id', '=', k.clientId)
    .where('redirect_uri', '=', k.redirectUri)
    .where('resource', '=', k.resource)
    .executeTakeFirst();
  return row?.scope;
}

export async function rememberConsent(db: Kysely<Database>, k: ConsentKey, scope: string, at: number): Promise<void> {
  await db
    .insertInto('oauth_consents')
    .values({ org_id: k.orgId, user_id: k.userId, client_id: k.clientId, redirect_uri: k.redirectUri, resource: k.resource, scope, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['org_id', 'user_id', 'client_id', 'redirect_uri', 'resource']).doUpdateSet({ scope, updated_at: at }))
    .execute();
}

/** Forgets every remembered consent of a user for a client (revoking a connected app asks again next time). */
export async function forgetConsents(db: Kysely<Database>, orgId: string, userId: string, clientId: string): Promise<void> {
  await db.deleteFrom('oauth_consents').where('org_id', '=', orgId).where('user_id', '=', userId).where('client_id', '=', clientId).execute();
}
