// Users and the upstream identities they sign in with.
import type { Kysely } from 'kysely';
import type { Database, Role, UsersTable, UserStatus } from './schema.ts';
import { newId, now } from './ids.ts';
import { uniquely } from './errors.ts';
import { prepare } from './prepared.ts';

export type { Role, UserStatus };

export type User = {
  id: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  timezone: string;
  status: UserStatus;
  signupSource: string | null;
  createdAt: number;
  lastSignInAt: number | null;
};

export type NewUser = {
  id?: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  timezone?: string;
  status?: UserStatus;
  signupSource?: string | null;
};

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function toUser(row: UsersTable): User {
  return {
    id: row.id,
    orgId: row.org_id,
    email: row.email,
    name: row.name,
    role: row.role,
    timezone: row.timezone,
    status: row.status,
    signupSource: row.signup_source,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

export async function createUser(db: Kysely<Database>, input: NewUser): Promise<User> {
  const at = now();
  const row: UsersTable = {
    org_id: input.orgId,
    id: input.id ?? newId('usr', at),
    email: normalizeEmail(input.email),
    name: input.name,
    role: input.role,
    timezone: input.timezone ?? 'UTC',
    status: input.status ?? 'active',
    signup_source: input.signupSource ?? null,
    created_at: at,
    updated_at: at,
    last_sign_in_at: null,
  };
  await uniquely(`a user with email ${row.email} already exists in this organization`, () => db.insertInto('users').values(row).execute());
  return toUser(row);
}

// Every request whose principal is not cached reads these: built once (store/prepared.ts).
const findUserStatement = prepare<[string, string]>()((db, $) => db.selectFrom('users').selectAll().where('org_id', '=', $<string>(0)).where('id', '=', $<string>(1)));

export async function findUser(db: Kysely<Database>, orgId: string, id: string): Promise<User | undefined> {
  const [row] = (await findUserStatement.execute(db, orgId, id)).rows;
  return row && toUser(row);
}

export async function findUserByEmail(db: Kysely<Database>, orgId: string, email: string): Promise<User | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row && toUser(row);
}

export async function listUsers(db: Kysely<Database>, orgId: string): Promise<User[]> {
  const rows = await db.selectFrom('users').selectAll().where('org_id', '=', orgId).orderBy('email').execute();
  return rows.map(toUser);
}

export async function setUserRole(db: Kysely<Database>, orgId: string, id: string, role: Role): Promise<boolean> {
  const r = await db.updateTable('users').set({ role, updated_at: now() }).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function setUserStatus(db: Kysely<Database>, orgId: string, id: string, status: UserStatus): Promise<boolean> {
  const r = await db.updateTable('users').set({ status, updated_at: now() }).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function recordSignIn(db: Kysely<Database>, orgId: string, id: string, at: number = now()): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('org_id', '=', orgId).where('id', '=', id).execute();
}

export type Identity = { issuer: string; subject: string };

/** Links an upstream identity to a user. An identity belongs to one user, forever. */
export async function linkIdentity(db: Kysely<Database>, user: Pick<User, 'orgId' | 'id'>, identity: Identity, email: string | null): Promise<void> {
  const at = now();
  await uniquely(`identity ${identity.issuer} ${identity.subject} is already linked`, () =>
    db
      .insertInto('user_identities')
      .values({ issuer: identity.issuer, subject: identity.subject, org_id: user.orgId, user_id: user.id, email, created_at: at, last_used_at: at })
      .execute(),
  );
}

export async function findUserByIdentity(db: Kysely<Database>, identity: Identity): Promise<User | undefined> {
  const row = await db
    .selectFrom('user_identities as i')
    .innerJoin('users as u', (j) => j.onRef('u.org_id', '=', 'i.org_id').onRef('u.id', '=', 'i.user_id'))
    .selectAll('u')
    .where('i.issuer', '=', identity.issuer)
    .where('i.subject', '=', identity.subject)
    .executeTakeFirst();
  return row && toUser(row);
}
