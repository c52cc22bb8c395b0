// Keyset pagination: the rows after a position (sort key, id) in a list's order, as the expanded
// OR both dialects accept (no row-value comparison), led by a bound on the key alone. The OR by
// itself is only a filter to both planners: a page behind a cursor walked every row before it (a
// page 26,000 meetings deep read 26,000 index entries: 15 ms on PostgreSQL, 1.5 ms on SQLite).
// `key <= v` starts the index range at the cursor (upToPosition's own bound ends it at a
// position). A list whose own window bounds the same key must also narrow that bound to the
// cursor and to such an end (windowFrom; deals.ts within): SQLite uses only one upper (or lower)
// bound of a column, not the tighter one.
import { sql, type RawBuilder } from 'kysely';

export type KeysetOrder = 'asc' | 'desc';

/** `(key >= v and (key > v or (key = v and id > last)))` ascending, `<=` and `<` descending. */
export function afterPosition(key: string, id: string, order: KeysetOrder, [value, lastId]: readonly [unknown, string]): RawBuilder<boolean> {
  const cmp = sql.raw(order === 'asc' ? '>' : '<');
  const bound = sql.raw(order === 'asc' ? '>=' : '<=');
  return sql<boolean>`(${sql.ref(key)} ${bound} ${value} and (${sql.ref(key)} ${cmp} ${value} or (${sql.ref(key)} = ${value} and ${sql.ref(id)} ${cmp} ${lastId})))`;
}

/**
 * A window [from, to) on the key narrowed to a cursor's side of its position, so that the window's
 * own bound, the one SQLite uses, starts the index range at the cursor. For whole-number keys (epoch
 * milliseconds); the same rows match, since afterPosition still decides ties at the position.
 */
export function windowFrom(window: { from: number; to: number }, order: KeysetOrder, after: readonly [number, string] | null): { from: number; to: number } {
  if (after === null || !Number.isSafeInteger(after[0])) return { from: window.from, to: window.to };
  return order === 'desc' ? { from: window.from, to: Math.min(window.to, after[0] + 1) } : { from: Math.max(window.from, after[0]), to: window.to };
}

/**
 * The rows up to and including a position in the list's order: afterPosition's complement, led by
 * its own bound on the key (`key <= v` ascending), so a walk stops at the position.
 */
export function upToPosition(key: string, id: string, order: KeysetOrder, [value, lastId]: readonly [unknown, string]): RawBuilder<boolean> {
  const [cmp, bound] = order === 'asc' ? [sql.raw('<'), sql.raw('<=')] : [sql.raw('>'), sql.raw('>=')];
  return sql<boolean>`(${sql.ref(key)} ${bound} ${value} and (${sql.ref(key)} ${cmp} ${value} or (${sql.ref(key)} = ${value} and ${sql.ref(id)} ${bound} ${lastId})))`;
}
