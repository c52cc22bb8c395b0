// `agent-access grants list|revoke`: the connected apps of an organization (or one user), for
// operators; revoking kills the grant and every token under it at once (AS-34).
import { parseArgs } from 'node:util';
import type { AppContext } from '../http/context.ts';
import { revokeGrantAs } from '../auth-server/connected-apps/revoke-grant.ts';
import { listLiveGrants } from '../store/oauth-grants.ts';
import { findUser, findUserByEmail } from '../store/users.ts';
import { now } from '../store/ids.ts';
import { createLogger } from '../log.ts';
import { createLimits } from '../limits/index.ts';
import { day, dispatch, printTable, requireOrganization, UsageError, withStore } from './admin-common.ts';

const USAGE = `Usage:
  agent-access grants list --org <id|domain> [--user <id|email>] [--json]
  agent-access grants revoke <grant-id>
`;

async function list(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, user: { type: 'string' }, json: { type: 'boolean', default: false } } });
  return withStore(async (store) => {
    const org = await requireOrganization(store, values.org);
    let userId: string | undefined;
    if (values.user) {
      const user = values.user.includes('@') ? await findUserByEmail(store.db, org.id, values.user) : await findUser(store.db, org.id, values.user);
      if (!user) throw new UsageError(`no user ${JSON.stringify(values.user)} in ${org.name}`);
      userId = user.id;
    }
    const grants = await listLiveGrants(store.db, org.id, userId, now());
    if (values.json) {
      process.stdout.write(JSON.stringify(grants, null, 2) + '\n');
      return 0;
    }
    printTable(
      grants.map((g) => ({
        id: g.id,
        user: g.userEmail ?? g.userId,
        client: g.clientName ?? g.clientId,
        scope: g.scope,
        created: day(g.createdAt),
        last_used: day(g.lastUsedAt),
      })),
    );
    return 0;
  });
}

async function revoke(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const grantId = positionals[0];
  if (!grantId) throw new UsageError('a grant id is required (see grants list)');
  return withStore(async (store, config) => {
    const logger = createLogger({ level: 'silent', format: 'json' });
    const ctx: AppContext = { config, store, logger, limits: createLimits(undefined, logger) };
    const grant = await revokeGrantAs(ctx, { kind: 'operator' }, grantId);
    if (!grant) {
      process.stderr.write(`agent-access: no live grant ${JSON.stringify(grantId)}\n`);
      return 1;
    }
    process.stdout.write(`revoked ${grant.id} (client ${grant.clientId}, user ${grant.userId}); its tokens stop working within seconds\n`);
    return 0;
  });
}

export async function grantsCommand(args: string[]): Promise<number> {
  return dispatch(args, { list, revoke }, USAGE);
}
