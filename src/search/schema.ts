// Row types of the documents tables (migrations 0005, 0006), added to the store's `Database` by intersection.
// The full-text parts (SQLite `id` rowid + FTS5 table, PostgreSQL `tsv`) are dialect-specific and
// only touched by the DocumentIndex implementations, in raw SQL.
export type DocumentSource = 'google_drive' | 'onedrive' | 'highspot' | 'upload';
export type DocumentVisibility = 'org' | 'team';

export type DocumentsTable = {
  org_id: string;
  id: string;
  title: string;
  source: DocumentSource;
  url: string;
  last_modified: number;
  visibility: DocumentVisibility;
  team_id: string | null;
  owner_id: string | null;
  word_count: number;
  chunk_count: number;
  created_at: number;
  updated_at: number;
};

export type DocumentChunksTable = {
  org_id: string;
  document_id: string;
  idx: number;
  heading: string;
  text: string;
};

/** Kept by triggers on documents (migration 0006); team_id is '' for org-visible documents. */
export type DocumentTotalsTable = {
  org_id: string;
  visibility: DocumentVisibility;
  team_id: string;
  source: DocumentSource;
  documents: number;
  chunks: number;
};

export type SearchDatabase = {
  documents: DocumentsTable;
  document_chunks: DocumentChunksTable;
  document_totals: DocumentTotalsTable;
};
