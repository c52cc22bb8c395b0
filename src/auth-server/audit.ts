// Writes an audit event with the request's address and user agent. `audit` is for events beside a
// response (reuse detected, consent, revocation): a write that fails is logged, never turned into a
// failed response. Token issue is different: the code and refresh grants write their event inside the
// issuing transaction, so tokens are never issued unaudited, and a failed write fails the request.
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../http/context.ts';
import { recordAuditEvent, type AuditEvent } from '../store/audit-events.ts';
import { clientAddress } from '../http/client-address.ts';

/** Where a request came from, as audit events record it. */
export function requestOrigin(c: Context<AppEnv> | undefined): { ip: string | null; userAgent: string | null } {
  return { ip: c ? clientAddress(c) : null, userAgent: c?.req.header('user-agent') ?? null };
}

export async function audit(ctx: AppContext, c: Context<AppEnv> | undefined, event: AuditEvent): Promise<void> {
  try {
    const origin = requestOrigin(c);
    await recordAuditEvent(ctx.store.db, { ...event, ip: event.ip ?? origin.ip, userAgent: event.userAgent ?? origin.userAgent });
  } catch (error) {
    (c?.get('log') ?? ctx.logger).error({ err: error, kind: event.kind }, 'audit event not recorded');
  }
  logAuditEvent(ctx, c, event);
}

/** The log line every audit event also gets (for events written inside a caller's transaction, the only record outside it). */
export function logAuditEvent(ctx: AppContext, c: Context<AppEnv> | undefined, event: AuditEvent): void {
  (c?.get('log') ?? ctx.logger).info({ audit: event.kind, clientId: event.clientId, userId: event.userId, ...event.detail }, 'audit');
}
