// Periodic housekeeping: remove abandoned clients (AS-64, P12: registrations unused for
// OAUTH_CLIENT_TTL_DAYS, a lease renewed at most hourly on use), expired codes, tokens and pending
// requests, grace-window responses past their window, identity's ended sessions and sign-in
// attempts, and audit events past AUDIT_RETENTION_DAYS.
// The only place expired rows are deleted: request paths never clean up, and every read checks
// expiry itself, so a row the job has not reached yet is still never honoured. Started by the
// service; the timer never holds the process. Every instance runs the timer; of instances sharing a
// database, only the one that claims a run (store/job-runs.ts) runs it.
import type { AppContext } from '../http/context.ts';
import { deleteAuditEventsBefore, recordAuditEvent } from '../store/audit-events.ts';
import { now } from '../store/ids.ts';
import { claimJobRun, releaseJobRun } from '../store/job-runs.ts';
import { deleteCodesExpiredBefore } from '../store/oauth-codes.ts';
import { clearGraceResponses, deleteTokensExpiredBefore } from '../store/oauth-grants.ts';
import { deletePendingRequestsExpiredBefore } from '../store/oauth-pending-requests.ts';
import { deleteLoginStatesExpiredBefore, deleteSessionsExpiredBefore } from '../identity/index.ts';

export const JOB_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Deletes dynamic and metadata-document clients unused since the cutoff that have no grant used
 * since then, with their remembered consents, and audits each. One statement picks and deletes the
 * clients, and only those it deleted lose their consents: a client used meanwhile keeps both.
 */
export async function collectAbandonedClients(ctx: AppContext, at: number = now()): Promise<string[]> {
  const cutoff = at - ctx.config.oauth.clientTtlDays * DAY_MS;
  // One transaction: a client removed without its consents (a run failing between the two) would
  // find them again if it came back under the same id (a metadata document's URL), and no later
  // run would see them.
  return ctx.store.db.transaction().execute(async (trx) => {
    const abandoned = trx
      .selectFrom('oauth_clients as c')
      .select('c.client_id')
      .where('c.kind', '!=', 'first_party')
      .where('c.last_used_at', '<', cutoff)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('oauth_grants as g').select('g.id').whereRef('g.client_id', '=', 'c.client_id').where('g.revoked_at', 'is', null).where('g.last_used_at', '>=', cutoff))),
      )
      .limit(1000);
    const removed = await trx.deleteFrom('oauth_clients').where('client_id', 'in', abandoned).where('last_used_at', '<', cutoff).returning('client_id').execute();
    const ids = removed.map((r) => r.client_id);
    if (ids.length === 0) return [];
    await trx.deleteFrom('oauth_consents').where('client_id', 'in', ids).execute();
    for (const clientId of ids) await recordAuditEvent(trx, { kind: 'client_removed', clientId, detail: { reason: 'abandoned' } });
    return ids;
  });
}

/** What one run removed (or, for grace responses, cleared), by kind. */
export type HousekeepingResult = {
  abandonedClients: number;
  codes: number;
  accessTokens: number;
  refreshTokens: number;
  pendingRequests: number;
  graceResponses: number;
  sessions: number;
  loginStates: number;
  auditEvents: number;
};

export async function housekeeping(ctx: AppContext, at: number = now()): Promise<HousekeepingResult> {
  const db = ctx.store.db;
  const abandonedClients = (await collectAbandonedClients(ctx, at)).length;
  const codes = await deleteCodesExpiredBefore(db, at - DAY_MS);
  const tokens = await deleteTokensExpiredBefore(db, at);
  const pendingRequests = await deletePendingRequestsExpiredBefore(db, at);
  const graceResponses = await clearGraceResponses(db, at - ctx.config.oauth.refreshGraceSeconds * 1000);
  const sessions = await deleteSessionsExpiredBefore(db, at);
  const loginStates = await deleteLoginStatesExpiredBefore(db, at);
  const retentionDays = ctx.config.oauth.auditRetentionDays;
  const auditEvents = retentionDays === 0 ? 0 : await deleteAuditEventsBefore(db, at - retentionDays * DAY_MS);
  return { abandonedClients, codes, ...tokens, pendingRequests, graceResponses, sessions, loginStates, auditEvents };
}

/** The job's name in `job_runs`, where instances sharing a database claim each run. */
export const HOUSEKEEPING_JOB = 'oauth-housekeeping';

/**
 * A run is claimed when the last one (by any instance sharing the database) started at least this
 * share of the interval ago. Less than the whole interval, so the instance that ran it last claims
 * it again at its next tick despite timers' drift; any instance takes over within two intervals
 * when that one stops (with the instances' clocks in step: a start is stamped by its instance's).
 * A run that fails gives its claim back, so the next tick anywhere tries again. A run longer than
 * this share of the interval may overlap the next one.
 */
export const JOB_CLAIM_SHARE = 0.9;

/**
 * The first run, this long after start: out of start-up's way, and soon enough that a service
 * restarted more often than hourly (deploys, autoscaling) still runs it, where a first run an hour
 * after start never came for such a service.
 */
export const JOB_FIRST_RUN_MS = 60 * 1000;

/**
 * Runs housekeeping a minute after start and hourly after that (sooner in tests), where this
 * instance claims the run (`JOB_CLAIM_SHARE`); logs what each run removed. Returns the stop
 * function, whose promise settles when a run in progress has (the service does not wait for it).
 */
export function startOAuthJobs(ctx: AppContext, { firstRunMs = JOB_FIRST_RUN_MS, intervalMs = JOB_INTERVAL_MS }: { firstRunMs?: number; intervalMs?: number } = {}): () => Promise<void> {
  let running: Promise<void> | undefined;
  const claimGapMs = Math.floor(intervalMs * JOB_CLAIM_SHARE);
  const runOnce = async () => {
    const started = now();
    if (!(await claimJobRun(ctx.store.db, HOUSEKEEPING_JOB, started, claimGapMs))) {
      return ctx.logger.debug('oauth housekeeping skipped: it started less than 0.9 of an interval ago (here or on another instance)');
    }
    try {
      const removed = await housekeeping(ctx, started);
      ctx.logger.info({ removed, ms: now() - started }, 'oauth housekeeping done');
    } catch (error) {
      // The run's own error is the one logged; a release that fails too (a store closed at shutdown) leaves the claim to lapse.
      await releaseJobRun(ctx.store.db, HOUSEKEEPING_JOB, started).catch((releaseError: unknown) => ctx.logger.warn({ err: releaseError }, 'oauth housekeeping claim not given back'));
      throw error;
    }
  };
  const run = () => {
    running ??= runOnce()
      .catch((error: unknown) => ctx.logger.error({ err: error }, 'oauth housekeeping failed'))
      .finally(() => {
        running = undefined;
      });
  };
  let timer = setTimeout(() => {
    run();
    timer = setInterval(run, intervalMs);
    timer.unref();
  }, firstRunMs);
  timer.unref();
  return async () => {
    clearTimeout(timer);
    await running;
  };
}
