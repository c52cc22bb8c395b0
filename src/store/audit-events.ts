// The audit log: who did what to which client, append only; the housekeeping job deletes events
// older than AUDIT_RETENTION_DAYS.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from './schema.ts';
import { newId, now } from './ids.ts';
import { deleteInSteps } from './delete-in-steps.ts';
import { prepare } from './prepared.ts';

export type AuditKind =
  | 'client_registered'
  | 'consent_granted'
  | 'consent_denied'
  | 'tokens_issued'
  | 'tokens_refreshed'
  | 'code_replay_detected'
  | 'rt_reuse_detected'
  | 'grant_revoked'
  | 'token_revoked'
  | 'client_removed'
  | 'sign_in_refused';

export type AuditEvent = {
  kind: AuditKind;
  orgId?: string | null;
  userId?: string | null;
  clientId?: string | null;
  detail?: Record<string, string | number | boolean | null>;
  ip?: string | null;
  userAgent?: string | null;
};

export type StoredAuditEvent = Required<Omit<AuditEvent, 'detail'>> & { id: string; detail: Record<string, unknown>; createdAt: number };

const recordAuditEventStatement = prepare<[string, string | null, string | null, string | null, AuditKind, string, string | null, string | null, number]>()((db, $) =>
  db.insertInto('audit_events').values({ id: $(0), org_id: $(1), user_id: $(2), client_id: $(3), kind: $(4), detail: $(5), ip: $(6), user_agent: $(7), created_at: $(8) }),
);

export async function recordAuditEvent(db: Kysely<Database>, e: AuditEvent): Promise<void> {
  const at = now();
  await recordAuditEventStatement.execute(
    db,
    newId('aud', at),
    e.orgId ?? null,
    e.userId ?? null,
    e.clientId ?? null,
    e.kind,
    JSON.stringify(e.detail ?? {}),
    e.ip ?? null,
    e.userAgent?.slice(0, 300) ?? null,
    at,
  );
}

const Detail = z.record(z.string(), z.unknown());

export async function listAuditEvents(db: Kysely<Database>, filter: { kind?: AuditKind; clientId?: string; orgId?: string } = {}): Promise<StoredAuditEvent[]> {
  let q = db.selectFrom('audit_events').selectAll();
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  if (filter.clientId) q = q.where('client_id', '=', filter.clientId);
  if (filter.orgId) q = q.where('org_id', '=', filter.orgId);
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1000).execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as AuditKind,
    orgId: r.org_id,
    userId: r.user_id,
    clientId: r.client_id,
    detail: Detail.parse(JSON.parse(r.detail)),
    ip: r.ip,
    userAgent: r.user_agent,
    createdAt: r.created_at,
  }));
}

/** Audit events one statement deletes (as for expired tokens: a backlog goes in ~20 ms steps on SQLite). */
export const AUDIT_DELETE_BATCH = 250;

/** Deletes the events recorded before `cutoff`, oldest first (the index of migration 0026); returns how many. */
export function deleteAuditEventsBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const old = db.selectFrom('audit_events').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(AUDIT_DELETE_BATCH);
  return deleteInSteps(async () => Number((await db.deleteFrom('audit_events').where('id', 'in', old).executeTakeFirst()).numDeletedRows), AUDIT_DELETE_BATCH);
}
