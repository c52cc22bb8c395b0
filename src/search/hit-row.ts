// The row both full-text engines select for a candidate passage, its conversion to a SearchHit, and
// how an engine's two candidate lists (title/heading matches, all matches) become one.
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
};

export function toHit(r: HitRow): SearchHit {
  return {
    documentId: r.document_id,
    chunkIndex: Number(r.idx),
    heading: r.heading,
    text: r.text,
    title: r.title,
    url: r.url,
    source: r.source,
    lastModified: Number(r.last_modified),
  };
}

/** A passage's identity across queries. */
export const passageKey = (hit: SearchHit): string => `${hit.documentId}:${hit.chunkIndex}`;

/** The first list, then the passages of the second not in it, each passage once, at most `limit`. */
export function headFirst(head: SearchHit[], all: SearchHit[], limit = Infinity): SearchHit[] {
  const seen = new Set<string>();
  const out: SearchHit[] = [];
  for (const hit of [...head, ...all]) {
    const key = passageKey(hit);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(hit);
    if (out.length === limit) break;
  }
  return out;
}
