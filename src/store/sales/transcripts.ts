// Transcript segments of one (already visibility-checked) meeting: pages in index order through
// the primary key (org_id, meeting_id, idx), never the whole transcript unless searching.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { TranscriptSegmentsTable } from './schema.ts';
import { shaped } from '../prepared.ts';

/** The columns a transcript page shows. */
export type Segment = Pick<TranscriptSegmentsTable, 'idx' | 'start_ms' | 'end_ms' | 'speaker' | 'participant_id' | 'text'>;
const SEGMENT_COLUMNS = ['idx', 'start_ms', 'end_ms', 'speaker', 'participant_id', 'text'] as const;

/** `participantIds`: only segments of these speakers (none given: no segment). */
export type SegmentFilter = { fromMs?: number; toMs?: number; participantIds?: number[] };

const segmentsPageStatement = shaped<[string, string, number, SegmentFilter, number]>()(
  (db, orgId, meetingId, fromIdx, f, limit) => {
    let q = db.selectFrom('transcript_segments').select(SEGMENT_COLUMNS).where('org_id', '=', orgId).where('meeting_id', '=', meetingId).where('idx', '>=', fromIdx);
    if (f.fromMs !== undefined) q = q.where('start_ms', '>=', f.fromMs);
    if (f.toMs !== undefined) q = q.where('start_ms', '<', f.toMs);
    if (f.participantIds) q = f.participantIds.length ? q.where('participant_id', 'in', f.participantIds) : q.where(sql<boolean>`1 = 0`);
    return q.orderBy('idx').limit(limit);
  },
  // The page size is a fact: both dialects write it into the SQL (literal-limit.ts).
  (b, orgId, meetingId, fromIdx, f, limit) => {
    const bound: SegmentFilter = {};
    if (b.fact(f.fromMs !== undefined)) bound.fromMs = b.value(f.fromMs);
    if (b.fact(f.toMs !== undefined)) bound.toMs = b.value(f.toMs);
    if (b.fact(f.participantIds === undefined ? -1 : f.participantIds.length) >= 0) bound.participantIds = f.participantIds!.map((id) => b.value(id));
    return [b.value(orgId), b.value(meetingId), b.value(fromIdx), bound, b.fact(limit)];
  },
);

/** Up to `limit` segments from index `fromIdx` on, in order, that pass the filter. */
export async function segmentsPage(db: Kysely<Database>, orgId: string, meetingId: string, fromIdx: number, f: SegmentFilter, limit: number): Promise<Segment[]> {
  return segmentsPageStatement.execute(db, orgId, meetingId, fromIdx, f, limit);
}

/** Every segment of the meeting (for text search with context); a meeting has at most a few thousand. */
export async function allSegments(db: Kysely<Database>, orgId: string, meetingId: string): Promise<Segment[]> {
  return db.selectFrom('transcript_segments').select(SEGMENT_COLUMNS).where('org_id', '=', orgId).where('meeting_id', '=', meetingId).orderBy('idx').execute();
}
