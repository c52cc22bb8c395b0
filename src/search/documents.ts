// Writing documents: each is chunked by heading and replaces any earlier version with the same id.
// Bulk writes go in batches, one transaction per batch, with multi-row inserts (the benchmark
// indexes 10,000–100,000 documents). The full-text index follows through the migration's triggers.
import { z } from 'zod';
import type { Transaction } from 'kysely';
import type { Store } from '../store/database.ts';
import { takeTurns } from '../store/organization-turns.ts';
import type { Database } from '../store/schema.ts';
import { newId, now } from '../store/ids.ts';
import { chunkMarkdown, wordCount, type Chunk } from './chunking.ts';

export const documentSources = ['google_drive', 'onedrive', 'highspot', 'upload'] as const;

export const DocumentInput = z
  .object({
    /** Stable id; a new one is made when absent. Re-indexing the same id replaces the document. */
    id: z.string().min(1).max(100).optional(),
    orgId: z.string().min(1),
    title: z.string().min(1).max(500),
    source: z.enum(documentSources),
    url: z.string().url().max(2000),
    /** Epoch milliseconds. */
    lastModified: z.number().int().nonnegative(),
    visibility: z.enum(['org', 'team']),
    teamId: z.string().min(1).nullable().optional(),
    ownerId: z.string().min(1).nullable().optional(),
    /** The document text as Markdown; headings (`#`…`######`) become the passages' locations. */
    body: z.string(),
  })
  .refine((d) => (d.visibility === 'team') === Boolean(d.teamId), {
    message: 'teamId is required for team-visible documents and must be absent for org-visible ones',
    path: ['teamId'],
  });
export type DocumentInput = z.input<typeof DocumentInput>;

export type IndexResult = { documents: number; chunks: number };

const DOCUMENTS_PER_BATCH = 250;
const ROWS_PER_INSERT = 500;

type Prepared = { doc: z.output<typeof DocumentInput> & { id: string }; chunks: Chunk[]; words: number };

function prepare(input: DocumentInput): Prepared {
  const doc = DocumentInput.parse(input);
  return { doc: { ...doc, id: doc.id ?? newId('doc') }, chunks: chunkMarkdown(doc.body, doc.title), words: wordCount(doc.body) };
}

async function writeBatch(trx: Transaction<Database>, batch: Prepared[]): Promise<number> {
  const at = now();
  // On PostgreSQL the document writes of one organization take turns: their triggers update the
  // organization's document_totals rows (one per visibility, team and source) in the order of the
  // documents, so two imports into one organization deadlocked without them.
  await takeTurns(trx, 'documents', batch.map(({ doc }) => doc.orgId));
  // Replace semantics: deleting the document cascades to its chunks, whose trigger clears the index.
  const byOrg = new Map<string, string[]>();
  for (const { doc } of batch) byOrg.set(doc.orgId, [...(byOrg.get(doc.orgId) ?? []), doc.id]);
  for (const [orgId, ids] of byOrg) await trx.deleteFrom('documents').where('org_id', '=', orgId).where('id', 'in', ids).execute();

  await trx
    .insertInto('documents')
    .values(
      batch.map(({ doc, chunks, words }) => ({
        org_id: doc.orgId,
        id: doc.id,
        title: doc.title,
        source: doc.source,
        url: doc.url,
        last_modified: doc.lastModified,
        visibility: doc.visibility,
        team_id: doc.teamId ?? null,
        owner_id: doc.ownerId ?? null,
        word_count: words,
        chunk_count: chunks.length,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();

  const rows = batch.flatMap(({ doc, chunks }) =>
    chunks.map((c) => ({ org_id: doc.orgId, document_id: doc.id, idx: c.index, heading: c.heading, text: c.text })),
  );
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await trx.insertInto('document_chunks').values(rows.slice(i, i + ROWS_PER_INSERT)).execute();
  }
  return rows.length;
}

/**
 * Writes many documents (validated, chunked), one transaction per batch of 250. Returns the counts
 * and the ids in input order through `onBatch` progress callbacks if given.
 */
export async function indexDocuments(
  store: Store,
  inputs: Iterable<DocumentInput>,
  options: { batchSize?: number; onBatch?: (done: IndexResult) => void } = {},
): Promise<IndexResult & { ids: string[] }> {
  const batchSize = options.batchSize ?? DOCUMENTS_PER_BATCH;
  const total: IndexResult = { documents: 0, chunks: 0 };
  const ids: string[] = [];
  let batch: Prepared[] = [];
  // A bulk write, not a request: on PostgreSQL its batches run on the maintenance connection,
  // without the request path's 10 s query timeout, which a batch could exceed while it waits for
  // another import's turn in its organization (takeTurns) or writes large documents. There one
  // batch is written while the next is prepared (parsing and chunking here, text search parsing in
  // the database); batches still commit one after another, so a document repeated in a later batch
  // replaces the earlier version.
  const db = store.maintenanceDb();
  const pipelined = store.capabilities.parallelWriters;
  let inflight: Promise<void> | null = null;
  const flush = async () => {
    if (batch.length === 0) return;
    // The same id twice in one batch: the later version wins (as it would across batches).
    const current = [...new Map(batch.map((p) => [`${p.doc.orgId}\u0000${p.doc.id}`, p])).values()];
    batch = [];
    if (inflight) await inflight;
    const write = db
      .transaction()
      .execute((trx) => writeBatch(trx, current))
      .then((chunks) => {
        total.documents += current.length;
        total.chunks += chunks;
        options.onBatch?.({ ...total });
      });
    write.catch(() => {}); // awaited below or by the next flush; never an unhandled rejection
    inflight = write;
    if (!pipelined) await write;
  };
  let prepared = 0;
  for (const input of inputs) {
    const doc = prepare(input);
    ids.push(doc.doc.id);
    batch.push(doc);
    // Let the in-flight transaction send its next statement.
    if (inflight && ++prepared % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  if (inflight) await inflight;
  return { ...total, ids };
}

/** Writes one document; returns its id and chunk count. */
export async function indexDocument(store: Store, input: DocumentInput): Promise<{ id: string; chunks: number }> {
  const result = await indexDocuments(store, [input]);
  return { id: result.ids[0] ?? '', chunks: result.chunks };
}

/** Removes a document and its passages from the index. Returns whether it existed. */
export async function deleteDocument(store: Store, orgId: string, documentId: string): Promise<boolean> {
  return store.db.transaction().execute(async (trx) => {
    await takeTurns(trx, 'documents', [orgId]);
    const result = await trx.deleteFrom('documents').where('org_id', '=', orgId).where('id', '=', documentId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
