// Batched inserts: rows are buffered per table and written in one transaction per flush, in
// multi-row INSERTs sized under both dialects' bound-parameter limits.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

type TableName = keyof Database;
const MAX_PARAMS = 30_000; // SQLite allows 32,766 bound parameters, PostgreSQL 65,535.

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
    await this.#db.transaction().execute(async (trx) => {
      for (const [table, rows] of buffers) {
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
