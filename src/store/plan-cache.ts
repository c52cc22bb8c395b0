// Statements PostgreSQL should plan once per connection and reuse (postgres.ts), by their SQL text.
//
// A named statement normally gets custom plans until PostgreSQL estimates its generic plan no
// dearer. For a keyset page that estimate is wrong: a generic plan guesses that a bound
// `start_at` range matches half a percent of the rows, so the joins look dearer per row than in a
// custom plan, and W1's meeting list was planned on every execution (~0.4 ms of planning against
// ~0.5 ms of execution; the forced generic plan: 0.01 ms and 0.33 ms, the same indexes). A statement
// whose plan cannot depend on its values (its shape is fixed by the facts prepared.ts records) can
// say so here. Search statements, whose plans do depend on their values, must not.
const MAX_TEXTS = 2000;
const texts = new Set<string>();

/** Marks a compiled statement's text as one to plan once (a bounded set: the oldest mark is dropped first). */
export function planOnce(sql: string): void {
  if (texts.has(sql)) return;
  if (texts.size >= MAX_TEXTS) texts.delete(texts.values().next().value as string);
  texts.add(sql);
}

export function plansOnce(sql: string): boolean {
  return texts.has(sql);
}
