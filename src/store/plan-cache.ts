// Where PostgreSQL plans a statement once per connection and reuses the plan (postgres.ts).
//
// A named statement normally gets custom plans until PostgreSQL estimates its generic plan no
// dearer. For a keyset page that estimate is wrong: a generic plan guesses that a bound
// `start_at` range matches half a percent of the rows, so the joins look dearer per row than in a
// custom plan, and W1's meeting list was planned on every execution (~0.4 ms of planning against
// ~0.3 ms of execution; the forced generic plan: 0.01 ms, the same plan). A statement whose plan
// cannot depend on its values (prepared.ts `plan: 'once'`) runs on a second pool of the store whose
// connections force generic plans (`plan_cache_mode`); everything else, search statements
// included (their plans do depend on their values), keeps PostgreSQL's own choice. Inside a
// transaction a statement runs on the transaction's connection, as every statement does.
import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Leads the text of a statement planned for its values on every execution (prepared.ts
 * `plan: 'per-call'`): postgres.ts never names such a text, and PostgreSQL plans an unnamed
 * statement with its parameters' values. A generic plan, which PostgreSQL may settle on after five
 * runs of a named one, guesses one row for each `email = $n` and can read the common set first.
 */
export const PLANNED_PER_CALL = '/* planned per call */ ';

const plannedOnce = new WeakMap<Kysely<Database>, Kysely<Database>>();

/** Registers the database that runs `db`'s planned-once statements (PostgreSQL stores only). */
export function usePlannedOnce(db: Kysely<Database>, target: Kysely<Database>): void {
  plannedOnce.set(db, target);
}

/** Where a planned-once statement given `db` runs: its store's planned-once pool, or `db` itself (SQLite, a transaction). */
export function plannedOnceDb(db: Kysely<Database>): Kysely<Database> {
  return plannedOnce.get(db) ?? db;
}

/**
 * Runs an ordinary query planned for its values on every execution (see PLANNED_PER_CALL), for a
 * query whose best plan depends on whose it is: a deal list's set of the caller's deals, or a
 * probe of the caller's attendance, is a few rows for one user and thousands for another. SQLite
 * reads the prefix as a comment.
 */
export async function executePlannedPerCall<R>(db: Kysely<Database>, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  return (await db.executeQuery<R>({ ...compiled, sql: PLANNED_PER_CALL + compiled.sql })).rows;
}
