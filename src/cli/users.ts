// `agent-access users list|set-role|disable|enable`: people of one organization.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Store } from '../store/database.ts';
import type { Organization } from '../store/organizations.ts';
import { findUser, findUserByEmail, listUsers, setUserRole, setUserStatus, type User } from '../store/users.ts';
import { day, dispatch, printTable, requireOrganization, UsageError, withStore } from './admin-common.ts';

const USAGE = `Usage:
  agent-access users list --org <id|domain> [--json]
  agent-access users set-role --org <id|domain> --user <id|email> --role admin|manager|member|viewer
  agent-access users disable --org <id|domain> --user <id|email>
  agent-access users enable --org <id|domain> --user <id|email>
`;

const Role = z.enum(['admin', 'manager', 'member', 'viewer']);

async function requireUser(store: Store, org: Organization, ref: string | undefined): Promise<User> {
  if (!ref) throw new UsageError('--user <id or email> is required');
  const user = ref.includes('@') ? await findUserByEmail(store.db, org.id, ref) : await findUser(store.db, org.id, ref);
  if (!user) throw new UsageError(`no user ${JSON.stringify(ref)} in ${org.name}`);
  return user;
}

async function list(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, json: { type: 'boolean', default: false } } });
  return withStore(async (store) => {
    const org = await requireOrganization(store, values.org);
    const users = await listUsers(store.db, org.id);
    if (values.json) {
      process.stdout.write(JSON.stringify(users, null, 2) + '\n');
      return 0;
    }
    printTable(users.map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role, status: u.status, last_sign_in: day(u.lastSignInAt) })));
    return 0;
  });
}

async function setRole(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, user: { type: 'string' }, role: { type: 'string' } } });
  const role = Role.safeParse(values.role);
  if (!role.success) throw new UsageError('--role must be admin, manager, member or viewer');
  return withStore(async (store) => {
    const org = await requireOrganization(store, values.org);
    const user = await requireUser(store, org, values.user);
    await setUserRole(store.db, org.id, user.id, role.data);
    process.stdout.write(`${user.email} is now ${role.data} in ${org.name}\n`);
    return 0;
  });
}

const setStatus = (status: 'active' | 'disabled') => async (args: string[]): Promise<number> => {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, user: { type: 'string' } } });
  return withStore(async (store) => {
    const org = await requireOrganization(store, values.org);
    const user = await requireUser(store, org, values.user);
    await setUserStatus(store.db, org.id, user.id, status);
    if (status === 'disabled') await store.db.deleteFrom('browser_sessions').where('org_id', '=', org.id).where('user_id', '=', user.id).execute();
    process.stdout.write(`${user.email} is now ${status} in ${org.name}\n`);
    return 0;
  });
};

export function usersCommand(args: string[]): Promise<number> {
  return dispatch(args, { list, 'set-role': setRole, disable: setStatus('disabled'), enable: setStatus('active') }, USAGE);
}
