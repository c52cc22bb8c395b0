// Keyset pagination: the rows after a position (sort key, id) in a list's order, as the expanded
// OR that the keyset indexes (org_id, …, key, id) serve on both dialects (no row-value comparison).
import { sql, type RawBuilder } from 'kysely';

export type KeysetOrder = 'asc' | 'desc';

/** `(key > v or (key = v and id > last))` ascending, `<` descending. */
export function afterPosition(key: string, id: string, order: KeysetOrder, [value, lastId]: readonly [unknown, string]): RawBuilder<boolean> {
  const cmp = sql.raw(order === 'asc' ? '>' : '<');
  return sql<boolean>`(${sql.ref(key)} ${cmp} ${value} or (${sql.ref(key)} = ${value} and ${sql.ref(id)} ${cmp} ${lastId}))`;
}
