// Bulk writers into one organization take turns on PostgreSQL.
import { sql, type Transaction } from 'kysely';
import { capabilitiesOf } from './database.ts';
import type { Database } from './schema.ts';

/**
 * First in a write transaction: waits until no other transaction of the same kind holds any of
 * these organizations, then holds them until it commits or rolls back (a transaction-scoped
 * advisory lock per kind and organization, taken in id order, so two writers never each hold a lock
 * the other waits for).
 *
 * A bulk write locks its rows in the order of its input, and its triggers lock rows it never names
 * (totals, a meeting's row while its participant copies the start): two imports into one
 * organization in different orders would each hold a row the other waits for, and PostgreSQL would
 * abort one of them (deadlock detected). With turns, the second waits for the first's commit: bulk
 * writers run on the maintenance connection, whose statements may take hours (a 6 h timeout); a
 * short writer on the request pool waits within its 10 s. SQLite has one writer at a
 * time already: nothing to do.
 */
export async function takeTurns(trx: Transaction<Database>, kind: 'documents' | 'sales-import', orgIds: Iterable<string>): Promise<void> {
  if (!capabilitiesOf(trx).parallelWriters) return;
  for (const orgId of [...new Set(orgIds)].sort()) await sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}:${orgId}`}, 0))`.execute(trx);
}
