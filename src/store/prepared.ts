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
import { PLANNED_PER_CALL, plannedOnceDb } from './plan-cache.ts';

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

// One frozen slot per index, made once: a shaped statement binds every value of every call through here.
const frozenSlots: Slot[] = [];
const placeholder: Placeholder = <T>(index: number) => (frozenSlots[index] ??= Object.freeze({ [SLOT]: index })) as unknown as T;

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

/**
 * Collects a shaped statement's values while the caller's arguments are rewritten for the builder:
 * `value(v)` stands a slot in for a value, `fact(v)` records something the SQL itself depends on
 * (a role, whether a filter is present, the length of an `in (…)` list, a literal page size).
 */
export class Binder {
  readonly values: unknown[] = [];
  readonly #facts: unknown[] = [];
  value<T>(v: T): T {
    this.values.push(v);
    return placeholder<T>(this.values.length - 1);
  }
  fact<T>(v: T): T {
    this.#facts.push(v);
    return v;
  }
  get key(): string {
    return JSON.stringify(this.#facts);
  }
}

export type ShapedStatement<A extends readonly unknown[], R> = {
  execute(db: Kysely<Database>, ...args: A): Promise<R[]>;
};

/** Compiled shapes kept per dialect adapter; beyond this the least recently used is dropped. */
const MAX_SHAPES = 256;

/**
 * Under the test runner, every call of a shaped statement is also built and compiled from the
 * caller's own arguments, and must give the same SQL and the same parameters: a builder that
 * branches on a value its binder did not record as a fact fails the tests instead of running the
 * wrong SQL.
 */
const VERIFY_SHAPES = process.env.NODE_TEST_CONTEXT !== undefined || process.env.AGENT_ACCESS_VERIFY_SHAPES === '1';

/**
 * `shaped<[args…]>()(build, bind)`: a statement whose SQL depends on a few facts of its arguments but not on
 * their values, such as a list query whose optional filters and visibility predicate vary. `bind`
 * returns the arguments with every value replaced by `b.value(v)` and every fact the builder
 * branches on recorded by `b.fact(v)`; the statement is built and compiled once per distinct set
 * of facts and bound per call. On a cache hit the builder does not run at all (Kysely's building
 * and compiling was ~40% of a list_meetings call's SQL time).
 */
export function shaped<A extends readonly unknown[]>() {
  return <R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>, bind: (b: Binder, ...args: A) => A, options: ShapedOptions = {}): ShapedStatement<A, R> =>
    shapedStatement(build, bind, options);
}

/**
 * How PostgreSQL plans the statement (plan-cache.ts); SQLite plans every statement for its shape.
 * - `once`: outside a transaction, it runs on the store's pool that plans every statement once per
 *   connection and reuses the plan, whatever PostgreSQL estimates. Only for a statement whose best
 *   plan cannot depend on its values, such as a keyset page over an index; measured before it is set.
 * - `per-call`: it is never named, so every execution is planned for its values. For a statement
 *   whose best plan does depend on them (which of two rare-or-common sets to read first).
 * - default: named; PostgreSQL's own choice between custom and generic plans after five runs.
 */
export type ShapedOptions = { plan?: 'once' | 'per-call' };

function shapedStatement<A extends readonly unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>, bind: (b: Binder, ...args: A) => A, options: ShapedOptions): ShapedStatement<A, R> {
  const compiled = new WeakMap<DialectAdapter, Map<string, { query: CompiledQuery<R>; slots: (number | undefined)[] }>>();
  return {
    async execute(given, ...args) {
      const db = options.plan === 'once' ? plannedOnceDb(given) : given;
      const b = new Binder();
      const bound = bind(b, ...args);
      const key = b.key;
      const adapter = db.getExecutor().adapter;
      let shapes = compiled.get(adapter);
      if (!shapes) compiled.set(adapter, (shapes = new Map()));
      let entry = shapes.get(key);
      if (entry) {
        shapes.delete(key);
      } else {
        const query = build(db, ...bound).compile();
        entry = { query, slots: query.parameters.map((p) => (isSlot(p) ? p[SLOT] : undefined)) };
        if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
      }
      shapes.set(key, entry);
      const { query, slots } = entry;
      const parameters = slots.map((slot, i) => (slot === undefined ? query.parameters[i] : b.values[slot]));
      if (VERIFY_SHAPES) {
        const direct = build(db, ...args).compile();
        if (direct.sql !== query.sql || JSON.stringify(direct.parameters) !== JSON.stringify(parameters)) {
          throw new Error(`shaped statement: the binder misses a fact the SQL depends on (key ${key}):\n${direct.sql}\n${query.sql}`);
        }
      }
      return (await db.executeQuery<R>({ ...query, sql: options.plan === 'per-call' ? PLANNED_PER_CALL + query.sql : query.sql, parameters })).rows;
    },
  };
}
