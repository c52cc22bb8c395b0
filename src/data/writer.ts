// Batched inserts: rows are buffered per table and written in one transaction per flush, in
// multi-row INSERTs sized under both dialects' bound-parameter limits.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

type TableName = keyof Database;
const MAX_PARAMS = 30_000; // SQLite allows 32,766 bound parameters, PostgreSQL 65,535.

/**
 * Tables written before the others of a flush, in this order; the rest follow in the order their
 * first row was added. A participant copies its meeting's start and deal (on PostgreSQL its owner
 * too) as it is written (migrations 0011, 0017, 0018), which finds the meeting only if the meeting
 * was written first: the seed makes a meeting's participants before the meeting row (which counts
 * their transcript), and written in that order every participant was written again by its
 * meeting's trigger. On PostgreSQL that was a second version of each participant in all six of
 * its indexes (two of them trigram GIN indexes) and a run of its search-text trigger per meeting.
 */
const PARENTS_FIRST: readonly TableName[] = ['accounts', 'deals', 'meetings'];
const writeRank = (table: TableName): number => {
  const i = PARENTS_FIRST.indexOf(table);
  return i < 0 ? PARENTS_FIRST.length : i;
};

export class BatchWriter {
  readonly #db: Kysely<Database>;
  #buffers = new Map<TableName, Record<string, unknown>[]>();
  #pending = 0;
  written = 0;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }
  add<T extends TableName>(table: T, row: Insertable<Database[T]>): void {
    let buffer = this.#buffers.get(table);
    if (!buffer) this.#buffers.set(table, (buffer = []));
    buffer.push(row as Record<string, unknown>);
    this.#pending += 1;
  }
  get pending(): number {
    return this.#pending;
  }
  async flush(): Promise<void> {
    if (this.#pending === 0) return;
    const buffers = this.#buffers;
    this.#buffers = new Map();
    const count = this.#pending;
    this.#pending = 0;
    // A stable sort: tables outside PARENTS_FIRST keep the order their first row was added.
    const tables = [...buffers].sort(([a], [b]) => writeRank(a) - writeRank(b));
    await this.#db.transaction().execute(async (trx) => {
      for (const [table, rows] of tables) {
        const columns = Object.keys(rows[0] ?? {}).length || 1;
        const chunk = Math.max(1, Math.floor(MAX_PARAMS / columns));
        for (let i = 0; i < rows.length; i += chunk) {
          // The row objects were typed at add(); Kysely cannot see that through the table-keyed map.
          await trx.insertInto(table).values(rows.slice(i, i + chunk) as never).execute();
        }
      }
    });
    this.written += count;
  }
}
