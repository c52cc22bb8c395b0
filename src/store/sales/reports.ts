// Reports and their sections, bounded by the access policy; lists keyset on (period_end, id).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { ReportSectionsTable, ReportsTable } from './schema.ts';
import type { Principal } from '../../access/principal.ts';
import { reportVisible } from '../../access/visibility.ts';
import { ilike } from './like.ts';
import { afterPosition } from './keyset.ts';

export type ReportFilters = { type?: ReportsTable['type']; teamId?: string; ownerId?: string; periodStart?: string; periodEnd?: string; q?: string };

export async function listReports(db: Kysely<Database>, p: Principal, f: ReportFilters, after: [string, string] | null, limit: number): Promise<ReportsTable[]> {
  let q = db.selectFrom('reports as r').selectAll('r').where('r.org_id', '=', p.orgId).where(reportVisible(p, 'r'));
  if (f.type) q = q.where('r.type', '=', f.type);
  if (f.teamId) q = q.where('r.team_id', '=', f.teamId);
  if (f.ownerId) q = q.where('r.owner_id', '=', f.ownerId);
  // Reports whose period overlaps [periodStart, periodEnd].
  if (f.periodStart) q = q.where('r.period_end', '>=', f.periodStart);
  if (f.periodEnd) q = q.where('r.period_start', '<=', f.periodEnd);
  if (f.q) q = q.where(ilike(db, 'r.title', f.q));
  if (after) q = q.where(afterPosition('r.period_end', 'r.id', 'desc', after));
  return q.orderBy('r.period_end', 'desc').orderBy('r.id', 'desc').limit(limit).execute();
}

export async function findVisibleReport(db: Kysely<Database>, p: Principal, id: string): Promise<ReportsTable | undefined> {
  return db.selectFrom('reports as r').selectAll('r').where('r.org_id', '=', p.orgId).where('r.id', '=', id).where(reportVisible(p, 'r')).executeTakeFirst();
}

/** Section titles and sizes (no bodies) for a table of contents. */
export async function sectionIndex(db: Kysely<Database>, orgId: string, reportId: string): Promise<{ idx: number; section_id: string; title: string; chars: number }[]> {
  const rows = await db
    .selectFrom('report_sections')
    .select(['idx', 'section_id', 'title', (eb) => eb.fn<number>('length', ['markdown']).as('chars')])
    .where('org_id', '=', orgId)
    .where('report_id', '=', reportId)
    .orderBy('idx')
    .execute();
  return rows.map((r) => ({ ...r, chars: Number(r.chars) }));
}

export async function sectionsFrom(db: Kysely<Database>, orgId: string, reportId: string, fromIdx: number, toIdx: number): Promise<ReportSectionsTable[]> {
  return db.selectFrom('report_sections').selectAll().where('org_id', '=', orgId).where('report_id', '=', reportId).where('idx', '>=', fromIdx).where('idx', '<=', toIdx).orderBy('idx').execute();
}
