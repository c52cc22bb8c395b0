// NDJSON import: one file per record type (<type>.ndjson), every row validated with zod and its
// references checked inside the chosen organization; a file with any bad row is rejected whole
// (each bad row reported with file and line), a good file is written in one transaction.
// Idempotent by id: rows are upserted, a report's sections replaced. On PostgreSQL, imports into one
// organization may run at once: their files take turns.
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Store } from '../store/database.ts';
import type { Database } from '../store/schema.ts';
import { IMPORT_ORDER, ImportSchemas, type ImportRow, type RecordType } from './import-schemas.ts';
import { toRows, type Lookups } from './import-rows.ts';
import { takeTurns } from '../store/organization-turns.ts';

export type ImportIssue = { file: string; line: number; message: string };
export type FileReport = { file: string; type: RecordType; rows: number; status: 'imported' | 'rejected' | 'absent'; issues: ImportIssue[] };

const MAX_ISSUES = 100;
const BATCH = 500;

/** The path of the first string in a parsed row that holds U+0000, if any ('' for the row itself). */
function nulAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = nulAt(inner, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

async function readRows<T extends RecordType>(file: string, type: T, issues: ImportIssue[]): Promise<{ line: number; row: ImportRow<T> }[]> {
  const rows: { line: number; row: ImportRow<T> }[] = [];
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      issues.push({ file, line, message: 'not valid JSON' });
      continue;
    }
    const nul = nulAt(value);
    if (nul !== undefined) {
      issues.push({ file, line, message: `${nul || '(row)'}: holds U+0000 (a NUL character), which PostgreSQL cannot store and SQLite's text search stops at` });
      continue;
    }
    const parsed = ImportSchemas[type].safeParse(value);
    if (!parsed.success) {
      const message = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
      issues.push({ file, line, message });
      continue;
    }
    rows.push({ line, row: parsed.data as ImportRow<T> });
  }
  return rows;
}

async function idsOf(db: Kysely<Database>, table: 'accounts' | 'deals' | 'meetings' | 'agents' | 'teams', orgId: string): Promise<Set<string>> {
  const rows = await db.selectFrom(table).select('id').where('org_id', '=', orgId).execute();
  return new Set(rows.map((r) => r.id));
}

async function lookups(db: Kysely<Database>, orgId: string): Promise<Lookups> {
  const users = await db.selectFrom('users').select(['id', 'email']).where('org_id', '=', orgId).execute();
  const [accounts, deals, meetings, agents, teams] = await Promise.all([idsOf(db, 'accounts', orgId), idsOf(db, 'deals', orgId), idsOf(db, 'meetings', orgId), idsOf(db, 'agents', orgId), idsOf(db, 'teams', orgId)]);
  return { orgId, userByEmail: new Map(users.map((u) => [u.email, u.id])), accounts, deals, meetings, agents, teams };
}

type PkOf = Record<string, string[]>;
const PK: PkOf = {
  accounts: ['org_id', 'id'],
  agents: ['org_id', 'id'],
  deals: ['org_id', 'id'],
  meetings: ['org_id', 'id'],
  participants: ['org_id', 'meeting_id', 'id'],
  transcript_segments: ['org_id', 'meeting_id', 'idx'],
  agent_results: ['org_id', 'agent_id', 'meeting_id'],
  qualification_results: ['org_id', 'deal_id', 'agent_id'],
  reports: ['org_id', 'id'],
  report_sections: ['org_id', 'report_id', 'idx'],
};
/** Columns an upsert never overwrites: the transcript counters belong to the segments import. */
const KEEP: Record<string, string[]> = { meetings: ['has_transcript', 'segment_count', 'transcript_chars'] };

async function upsert(trx: Transaction<Database>, table: keyof Database, rows: Record<string, unknown>[]): Promise<void> {
  const pk = PK[table]!;
  for (let i = 0; i < rows.length; i += BATCH) {
    const chunk = rows.slice(i, i + BATCH);
    const update = Object.keys(chunk[0]!).filter((c) => !pk.includes(c) && c !== 'created_at' && !(KEEP[table] ?? []).includes(c));
    await trx
      .insertInto(table)
      .values(chunk as never)
      .onConflict((oc) => oc.columns(pk as never).doUpdateSet(Object.fromEntries(update.map((c) => [c, sql.ref(`excluded.${c}`)])) as never))
      .execute();
  }
}

/** Recomputes the transcript counters of the given meetings from their segments. */
async function refreshTranscriptCounters(trx: Transaction<Database>, orgId: string, meetingIds: string[]): Promise<void> {
  for (let i = 0; i < meetingIds.length; i += BATCH) {
    const ids = meetingIds.slice(i, i + BATCH);
    const stats = await trx
      .selectFrom('transcript_segments')
      .select(['meeting_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>(eb.fn('length', ['text'])).as('chars')])
      .where('org_id', '=', orgId)
      .where('meeting_id', 'in', ids)
      .groupBy('meeting_id')
      .execute();
    for (const s of stats) {
      await trx
        .updateTable('meetings')
        .set({ segment_count: Number(s.n), transcript_chars: Number(s.chars ?? 0), has_transcript: Number(s.n) > 0 ? 1 : 0, transcript_reason: null })
        .where('org_id', '=', orgId)
        .where('id', '=', s.meeting_id)
        .execute();
    }
  }
}

/**
 * Imports the files of `dir` into one organization. Writes go through the store's maintenance
 * connection, as document imports do: a file is one transaction of bulk upserts, and on PostgreSQL
 * a statement waiting for rows another writer holds must not be cut off by the request pool's
 * 10 s query timeout.
 */
export async function importDirectory(store: Store, orgId: string, dir: string): Promise<FileReport[]> {
  const db = store.maintenanceDb();
  const reports: FileReport[] = [];
  for (const type of IMPORT_ORDER) {
    const file = join(dir, `${type}.ndjson`);
    if (!existsSync(file)) {
      reports.push({ file, type, rows: 0, status: 'absent', issues: [] });
      continue;
    }
    const issues: ImportIssue[] = [];
    const parsed = await readRows(file, type, issues);
    const known = await lookups(db, orgId);
    const tables: Partial<Record<keyof Database, Record<string, unknown>[]>> = {};
    for (const { line, row } of parsed) {
      const result = toRows(type, row, known);
      if ('error' in result) issues.push({ file, line, message: result.error });
      else for (const [table, out] of result.rows) (tables[table] ??= []).push(out);
    }
    if (issues.length > 0) {
      reports.push({ file, type, rows: parsed.length, status: 'rejected', issues: issues.slice(0, MAX_ISSUES) });
      continue;
    }
    await db.transaction().execute(async (trx) => {
      // One file of one import at a time per organization (on PostgreSQL): two imports' upserts
      // lock rows in their files' orders, and a participant's insert reads its meeting's row, so
      // imports side by side could each wait for the other and one would be aborted.
      await takeTurns(trx, 'sales-import', [orgId]);
      if (type === 'reports') {
        const ids = (tables.reports ?? []).map((r) => r.id as string);
        for (let i = 0; i < ids.length; i += BATCH) await trx.deleteFrom('report_sections').where('org_id', '=', orgId).where('report_id', 'in', ids.slice(i, i + BATCH)).execute();
      }
      for (const [table, rows] of Object.entries(tables) as [keyof Database, Record<string, unknown>[]][]) if (rows.length) await upsert(trx, table, rows);
      if (type === 'transcript_segments') await refreshTranscriptCounters(trx, orgId, [...new Set((tables.transcript_segments ?? []).map((r) => r.meeting_id as string))]);
    });
    reports.push({ file, type, rows: parsed.length, status: 'imported', issues: [] });
  }
  if (reports.some((r) => r.status === 'imported')) await store.refreshStatistics();
  return reports;
}
