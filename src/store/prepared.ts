// Statements built once, bound per call. Kysely rebuilds and recompiles a query every time it
// runs; for the fixed-shape statements of the hottest paths (the token rotation and its lookups)
// that was ~13% of a refresh. A prepared statement is built once per dialect with placeholder
// values and compiled; a call substitutes its values for the placeholders, in order, and runs the
// compiled SQL on whatever it is given: the store's database or a transaction.
//
// Only for statements whose SQL does not depend on the values: no `in (…)` lists, no optional
// conditions. Anything dynamic stays an ordinary Kysely query. The compiled form is kept per
// dialect adapter, which a database shares with its transactions and with any `withPlugin` or
// `withSchema` view of it: a statement must not be run through such a view (none exists today).
// The value tuple is given where a statement is defined, so a call's values are type-checked.
import type { Compilable, CompiledQuery, DialectAdapter, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.ts';

const SLOT = Symbol('prepared slot');
type Slot = { readonly [SLOT]: number };

function isSlot(value: unknown): value is Slot {
  return typeof value === 'object' && value !== null && SLOT in value;
}

/** `$(i)` stands for the i-th value of a call; typed as whatever the builder needs there. */
export type Placeholder = <T>(index: number) => T;

export type PreparedStatement<A extends readonly unknown[], R> = {
  execute(db: Kysely<Database>, ...values: A): Promise<QueryResult<R>>;
};

const placeholder: Placeholder = <T>(index: number) => Object.freeze({ [SLOT]: index }) as unknown as T;

/**
 * `prepare<[values…]>()(build)`: the value tuple is given, the row type is inferred from the query.
 * `$(i)` in `build` stands for the i-th value of every call.
 */
export function prepare<A extends readonly unknown[]>() {
  return <R>(build: (db: Kysely<Database>, $: Placeholder) => Compilable<R>): PreparedStatement<A, R> => {
    // One compiled form per dialect adapter (shared by a database and its transactions).
    const compiled = new WeakMap<DialectAdapter, { query: CompiledQuery<R>; slots: (number | undefined)[] }>();
    const compile = (db: Kysely<Database>) => {
      const query = build(db, placeholder).compile();
      const slots = query.parameters.map((p) => (isSlot(p) ? p[SLOT] : undefined));
      if (!slots.some((s) => s !== undefined)) throw new Error(`prepared statement binds no values: ${query.sql}`);
      return { query, slots };
    };
    return {
      async execute(db, ...values) {
        const adapter = db.getExecutor().adapter;
        let entry = compiled.get(adapter);
        if (!entry) compiled.set(adapter, (entry = compile(db)));
        const { query, slots } = entry;
        const parameters = slots.map((slot, i) => (slot === undefined ? query.parameters[i] : values[slot]));
        return db.executeQuery<R>({ ...query, parameters });
      },
    };
  };
}
