// Revoking a grant on behalf of a person (the account page) or an operator (the CLI): the grant
// and every token under it die, the remembered consent is forgotten, and it is audited (AS-34).
import type { AppContext } from '../../http/context.ts';
import { forgetConsents } from '../../store/oauth-consents.ts';
import { findGrant, revokeGrant, type Grant } from '../../store/oauth-grants.ts';
import { now } from '../../store/ids.ts';
import { recordAuditEvent } from '../../store/audit-events.ts';

export type Revoker = { kind: 'user'; userId: string; orgId: string; admin: boolean } | { kind: 'operator' };

/** Whether this revoker may revoke this grant: its owner, an admin of its organization, or an operator. */
export function mayRevoke(revoker: Revoker, grant: Grant): boolean {
  if (revoker.kind === 'operator') return true;
  if (revoker.orgId !== grant.orgId) return false;
  return revoker.admin || revoker.userId === grant.userId;
}

/** Returns the grant when it was live and is now revoked; undefined when unknown, not allowed or already dead. */
export async function revokeGrantAs(ctx: AppContext, revoker: Revoker, grantId: string, meta: { ip?: string | null; userAgent?: string | null } = {}): Promise<Grant | undefined> {
  const grant = await findGrant(ctx.store.db, grantId);
  if (!grant || !mayRevoke(revoker, grant)) return undefined;
  const reason = revoker.kind === 'operator' ? 'revoked_by_operator' : revoker.userId === grant.userId ? 'revoked_by_user' : 'revoked_by_admin';
  if (!(await revokeGrant(ctx.store.db, grant.id, reason, now()))) return undefined;
  await forgetConsents(ctx.store.db, grant.orgId, grant.userId, grant.clientId);
  await recordAuditEvent(ctx.store.db, {
    kind: 'grant_revoked',
    orgId: grant.orgId,
    userId: grant.userId,
    clientId: grant.clientId,
    detail: { grant_id: grant.id, by: reason, actor: revoker.kind === 'user' ? revoker.userId : 'operator' },
    ip: meta.ip ?? null,
    userAgent: meta.userAgent ?? null,
  });
  return grant;
}
