// Server-side browser sessions. The cookie holds a random id; the table holds its keyed hash, the
// user and the upstream issuer. A session ends at its expiry, on sign-out, or when the user is
// disabled (checked on every read).
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { now } from '../store/ids.ts';
import { findUser, type User } from '../store/users.ts';
import { SESSION_TTL_MS } from './defaults.ts';
import { keyedHash, randomToken, TOKEN_SHAPE } from './secrets.ts';

export type Session = { idHash: string; user: User; upstreamIssuer: string; createdAt: number; expiresAt: number };

const hashOf = (hashKey: string, id: string) => keyedHash(hashKey, 'session', id);

export async function createSession(
  db: Kysely<Database>,
  hashKey: string,
  user: Pick<User, 'orgId' | 'id'>,
  upstreamIssuer: string,
): Promise<{ id: string; idHash: string; expiresAt: number }> {
  const id = randomToken();
  const at = now();
  const idHash = hashOf(hashKey, id);
  const expiresAt = at + SESSION_TTL_MS;
  // Housekeeping on the way: this user's ended sessions are useless.
  await db.deleteFrom('browser_sessions').where('org_id', '=', user.orgId).where('user_id', '=', user.id).where('expires_at', '<=', at).execute();
  await db
    .insertInto('browser_sessions')
    .values({ id_hash: idHash, org_id: user.orgId, user_id: user.id, upstream_issuer: upstreamIssuer, created_at: at, expires_at: expiresAt })
    .execute();
  return { id, idHash, expiresAt };
}

export async function findSession(db: Kysely<Database>, hashKey: string, id: string | undefined): Promise<Session | null> {
  if (!id || !TOKEN_SHAPE.test(id)) return null;
  const idHash = hashOf(hashKey, id);
  const row = await db.selectFrom('browser_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row || Number(row.expires_at) <= now()) return null;
  const user = await findUser(db, row.org_id, row.user_id);
  if (!user || user.status !== 'active') return null;
  return { idHash, user, upstreamIssuer: row.upstream_issuer, createdAt: Number(row.created_at), expiresAt: Number(row.expires_at) };
}

export async function deleteSession(db: Kysely<Database>, hashKey: string, id: string | undefined): Promise<void> {
  if (!id || !TOKEN_SHAPE.test(id)) return;
  await db.deleteFrom('browser_sessions').where('id_hash', '=', hashOf(hashKey, id)).execute();
}
