// Server-side browser sessions. The cookie holds a random id; the table holds its keyed hash, the
// user and the upstream issuer. A session ends at its expiry, on sign-out, or when the user is
// disabled (checked on every read); ended rows are removed by the periodic job, never on a request.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { now } from '../store/ids.ts';
import { toUser, type User } from '../store/users.ts';
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
  await db
    .insertInto('browser_sessions')
    .values({ id_hash: idHash, org_id: user.orgId, user_id: user.id, upstream_issuer: upstreamIssuer, created_at: at, expires_at: expiresAt })
    .execute();
  return { id, idHash, expiresAt };
}

/** One query: the unexpired session and its user, only while the user is active. */
export async function findSession(db: Kysely<Database>, hashKey: string, id: string | undefined): Promise<Session | null> {
  if (!id || !TOKEN_SHAPE.test(id)) return null;
  const idHash = hashOf(hashKey, id);
  const row = await db
    .selectFrom('browser_sessions as s')
    .innerJoin('users as u', (j) => j.onRef('u.org_id', '=', 's.org_id').onRef('u.id', '=', 's.user_id'))
    .selectAll('u')
    .select(['s.upstream_issuer', 's.created_at as session_created_at', 's.expires_at as session_expires_at'])
    .where('s.id_hash', '=', idHash)
    .where('s.expires_at', '>', now())
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  if (!row) return null;
  return { idHash, user: toUser(row), upstreamIssuer: row.upstream_issuer, createdAt: Number(row.session_created_at), expiresAt: Number(row.session_expires_at) };
}

export async function deleteSession(db: Kysely<Database>, hashKey: string, id: string | undefined): Promise<void> {
  if (!id || !TOKEN_SHAPE.test(id)) return;
  await db.deleteFrom('browser_sessions').where('id_hash', '=', hashOf(hashKey, id)).execute();
}

/** Periodic housekeeping (src/auth-server/jobs.ts): removes sessions that ended before `cutoff`. */
export async function deleteSessionsExpiredBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const r = await db.deleteFrom('browser_sessions').where('expires_at', '<=', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
