// The row both full-text engines select for a hit, and its conversion to a SearchHit. Only the
// meaning of `rank` differs by engine, so the caller passes the score.
import type { SearchHit } from './document-index.ts';
import type { DocumentSource } from './schema.ts';

export type HitRow = {
  document_id: string;
  idx: number;
  heading: string;
  text: string;
  title: string;
  url: string;
  source: DocumentSource;
  last_modified: number;
  rank: number;
};

export function toHit(r: HitRow, score: number): SearchHit {
  return {
    documentId: r.document_id,
    chunkIndex: Number(r.idx),
    heading: r.heading,
    text: r.text,
    title: r.title,
    url: r.url,
    source: r.source,
    lastModified: Number(r.last_modified),
    score,
  };
}
