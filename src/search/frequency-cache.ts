// Word frequencies, kept briefly per database and scope. Counting a word's visible passages joins
// every match (up to the cap) to its chunk and document for the access rule: ~2 ms a word on
// 200,000 passages, a third of an answer. Follow-up questions repeat most of their words, and the
// counts only steer the weights, so a count is reused for FREQUENCY_TTL_MS. The key holds the
// scope's document and passage totals (read on every call anyway), so an import or a deletion
// that changes them is seen at once; an edit that keeps both totals is seen within the TTL.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { DocumentIndex, SearchScope } from './document-index.ts';

export const FREQUENCY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

type Entry = { count: number; expires: number };
const caches = new WeakMap<Kysely<Database>, Map<string, Entry>>();

function scopeKey(scope: SearchScope, totals: { documents: number; passages: number }, cap: number): string {
  const list = (values: readonly string[] | undefined) => (values ? [...values].sort().join(',') : '*');
  return [scope.orgId, list(scope.teamIds), list(scope.sources), list(scope.documentIds), totals.documents, totals.passages, cap].join('\n');
}

export async function cachedFrequencies(
  db: Kysely<Database>,
  index: DocumentIndex,
  scope: SearchScope,
  totals: { documents: number; passages: number },
  groups: string[][],
  cap: number,
  at = Date.now(),
): Promise<number[]> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const prefix = scopeKey(scope, totals, cap);
  const keys = groups.map((g) => `${prefix}\n${g.join(' ')}`);
  const counts = keys.map((k) => {
    const hit = cache.get(k);
    return hit && hit.expires > at ? hit.count : undefined;
  });
  const missing = groups.filter((_, i) => counts[i] === undefined);
  if (missing.length > 0) {
    const fresh = await index.frequencies(scope, missing, cap);
    let next = 0;
    for (const [i, key] of keys.entries()) {
      if (counts[i] !== undefined) continue;
      const count = fresh[next++] ?? 0;
      counts[i] = count;
      cache.delete(key);
      cache.set(key, { count, expires: at + FREQUENCY_TTL_MS });
    }
    // Oldest first: Map keeps insertion order, and every write re-inserts.
    while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  }
  return counts as number[];
}
