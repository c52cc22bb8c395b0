// One interface over the two full-text engines (architecture.md "search"). Writes are the same in
// both dialects (plain inserts into document_chunks; the migration's triggers keep the index in
// step), so an index only searches. The engine is chosen by the store's capability, once.
import type { Store } from '../store/database.ts';
import { fts5Index } from './fts5-index.ts';
import { tsvectorIndex } from './tsvector-index.ts';
import type { DocumentSource } from './schema.ts';
import type { RetrievalQuery } from './retrieval-plan.ts';

/** What the caller may see and which documents to look in; applied in SQL. */
export type SearchScope = {
  orgId: string;
  /** Team-visible documents of these teams are included; org-visible ones always are. */
  teamIds: string[];
  sources?: DocumentSource[];
  documentIds?: string[];
};

export type SearchHit = {
  documentId: string;
  chunkIndex: number;
  heading: string;
  text: string;
  title: string;
  url: string;
  source: DocumentSource;
  lastModified: number;
};

export type SearchOptions = {
  /** Words whose presence in a passage's title or heading puts it first (default: the query's words). */
  headWords?: string[];
  /**
   * The caller has counted the query's words in scope and every one is common (found in at least
   * its frequency cap of passages): matches are likely dense, so PostgreSQL first reads the newest
   * passages in order and stops at `limit` title/heading matches (FTS5 streams that way anyway).
   */
  common?: boolean;
};

export type DocumentIndex = {
  /**
   * Candidate chunks in scope matching `query` (see retrieval-plan.ts), at most `limit`, unranked
   * (the reranker in answer.ts orders them, the same way on both engines). Passages with one of
   * the head words in their title or heading come first, then the most recently indexed. FTS5
   * takes the newest title/heading matches, then the newest of the rest. PostgreSQL, when told the
   * words are common and no documents are named, takes the newest title/heading matches (a word of
   * the title or heading starting with a head word's stem) among the organization's 4,000 newest
   * passages if they fill `limit`; otherwise it orders the matches by how many of the words' stems
   * start a word of the title and heading ("pric" in "Pricing", "win" also in "Window"), then by
   * the document's indexing time; told the words are common, it takes that order's first tier
   * from PostgreSQL's word match on the title and heading instead, and the rest from the newest
   * passages, without visiting every match (tsvector-index.ts). The two engines may pick different
   * candidates when more than `limit` match.
   */
  search(scope: SearchScope, query: RetrievalQuery, limit: number, options?: SearchOptions): Promise<SearchHit[]>;
  /**
   * For each group of alternative words, how many passages in scope contain any of them, counted up
   * to `cap` (the weights need only tell rare from common words).
   */
  frequencies(scope: SearchScope, groups: string[][], cap: number): Promise<number[]>;
  /**
   * The query plan of `search` (EXPLAIN QUERY PLAN / EXPLAIN), one line per row, for checks and
   * benches; with `common`, PostgreSQL's recent-first query.
   */
  explain(scope: SearchScope, query: RetrievalQuery, limit: number, options?: SearchOptions): Promise<string[]>;
};

export function documentIndex(store: Store): DocumentIndex {
  return store.capabilities.fullText === 'fts5' ? fts5Index(store.db) : tsvectorIndex(store.db);
}
