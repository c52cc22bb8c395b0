// Periodic housekeeping: remove abandoned clients (AS-64, P12: registrations unused for
// OAUTH_CLIENT_TTL_DAYS, a lease renewed at most hourly on use), expired codes, tokens and pending
// requests, grace-window responses past their window, and identity's ended sessions and sign-in
// attempts.
// The only place expired rows are deleted: request paths never clean up, and every read checks
// expiry itself, so a row the job has not reached yet is still never honoured. Started by the
// service; the timer never holds the process.
import type { AppContext } from '../http/context.ts';
import { recordAuditEvent } from '../store/audit-events.ts';
import { now } from '../store/ids.ts';
import { deleteCodesExpiredBefore } from '../store/oauth-codes.ts';
import { clearGraceResponses, deleteTokensExpiredBefore } from '../store/oauth-grants.ts';
import { deletePendingRequestsExpiredBefore } from '../store/oauth-pending-requests.ts';
import { deleteLoginStatesExpiredBefore, deleteSessionsExpiredBefore } from '../identity/index.ts';

export const JOB_INTERVAL_MS = 60 * 60 * 1000;

/** Deletes dynamic and metadata-document clients unused since the cutoff that have no grant used since then. */
export async function collectAbandonedClients(ctx: AppContext, at: number = now()): Promise<string[]> {
  const cutoff = at - ctx.config.oauth.clientTtlDays * 24 * 3600 * 1000;
  const db = ctx.store.db;
  const abandoned = await db
    .selectFrom('oauth_clients as c')
    .select('c.client_id')
    .where('c.kind', '!=', 'first_party')
    .where('c.last_used_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('oauth_grants as g').select('g.id').whereRef('g.client_id', '=', 'c.client_id').where('g.revoked_at', 'is', null).where('g.last_used_at', '>=', cutoff))),
    )
    .limit(1000)
    .execute();
  const ids = abandoned.map((r) => r.client_id);
  if (ids.length === 0) return [];
  await db.deleteFrom('oauth_consents').where('client_id', 'in', ids).execute();
  await db.deleteFrom('oauth_clients').where('client_id', 'in', ids).where('last_used_at', '<', cutoff).execute();
  for (const clientId of ids) await recordAuditEvent(db, { kind: 'client_removed', clientId, detail: { reason: 'abandoned' } });
  return ids;
}

export async function housekeeping(ctx: AppContext, at: number = now()): Promise<void> {
  await collectAbandonedClients(ctx, at);
  await deleteCodesExpiredBefore(ctx.store.db, at - 24 * 3600 * 1000);
  await deleteTokensExpiredBefore(ctx.store.db, at);
  await deletePendingRequestsExpiredBefore(ctx.store.db, at);
  await clearGraceResponses(ctx.store.db, at - ctx.config.oauth.refreshGraceSeconds * 1000);
  await deleteSessionsExpiredBefore(ctx.store.db, at);
  await deleteLoginStatesExpiredBefore(ctx.store.db, at);
}

/**
 * The first run, this long after start: out of start-up's way, and soon enough that a service
 * restarted more often than hourly (deploys, autoscaling) still runs it, where a first run an hour
 * after start never came for such a service.
 */
export const JOB_FIRST_RUN_MS = 60 * 1000;

/** Runs housekeeping a minute after start and hourly after that (sooner in tests); returns the stop function. */
export function startOAuthJobs(ctx: AppContext, { firstRunMs = JOB_FIRST_RUN_MS, intervalMs = JOB_INTERVAL_MS }: { firstRunMs?: number; intervalMs?: number } = {}): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    housekeeping(ctx)
      .catch((error: unknown) => ctx.logger.error({ err: error }, 'oauth housekeeping failed'))
      .finally(() => {
        running = false;
      });
  };
  let timer = setTimeout(() => {
    run();
    timer = setInterval(run, intervalMs);
    timer.unref();
  }, firstRunMs);
  timer.unref();
  return () => clearTimeout(timer);
}
