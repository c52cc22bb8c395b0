// Batch lookups the tools use to label rows (owners, accounts, teams), always inside one org.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export type UserLabel = { id: string; name: string; email: string; role: string };

export async function usersById(db: Kysely<Database>, orgId: string, ids: (string | null)[]): Promise<Map<string, UserLabel>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name', 'email', 'role']).where('org_id', '=', orgId).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export async function userByEmail(db: Kysely<Database>, orgId: string, email: string): Promise<UserLabel | undefined> {
  return db.selectFrom('users').select(['id', 'name', 'email', 'role']).where('org_id', '=', orgId).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function accountIdsByDomain(db: Kysely<Database>, orgId: string, domain: string): Promise<string[]> {
  const rows = await db.selectFrom('accounts').select('id').where('org_id', '=', orgId).where('domain', '=', domain).execute();
  return rows.map((r) => r.id);
}

export async function teamsById(db: Kysely<Database>, orgId: string, ids: (string | null)[]): Promise<Map<string, { id: string; name: string }>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('teams').select(['id', 'name']).where('org_id', '=', orgId).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
