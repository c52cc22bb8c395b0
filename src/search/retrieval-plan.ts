// Which passages the engine must fetch. A passage is relevant when its words carry at least half of
// the question's weight (answer.ts MIN_COVERAGE), so the engine is asked for exactly the passages
// that could be: those holding one of the minimal sets of words whose weights reach half. Asking
// for less would lose relevant passages; asking for more (a plain OR of every word) makes the
// engine rank tens of thousands of passages that can never be relevant on a large corpus.
//
// The query is in disjunctive form: clauses OR-ed, each clause a list of word groups AND-ed, each
// group alternatives OR-ed (a word and its glossary alternatives).
export type RetrievalQuery = string[][][];

/** Beyond this many clauses the plan falls back to a plain OR of the words that can matter. */
const MAX_CLAUSES = 12;
/** Only the heaviest words are combined (2^12 subsets at most are visited). */
const MAX_WORDS = 12;

export type PlannedTerm = { words: string[]; weight: number; known: boolean };

/**
 * The retrieval query for `terms`, or null when no passage can be relevant (the words any passage
 * contains weigh less than `share` of the question).
 */
export function planRetrieval(terms: PlannedTerm[], share: number): RetrievalQuery | null {
  const total = terms.reduce((a, t) => a + t.weight, 0);
  const need = total * share - 1e-9;
  const usable = terms.filter((t) => t.known && t.words.length > 0).sort((a, b) => b.weight - a.weight);
  if (usable.reduce((a, t) => a + t.weight, 0) < need) return null;

  const heavy = usable.slice(0, MAX_WORDS);
  const clauses: PlannedTerm[][] = [];
  let overflow = usable.length > MAX_WORDS;
  // Depth-first in decreasing weight: a set stops growing once it reaches the need, so dropping its
  // last (lightest) member falls short, and so would dropping any other: every set is minimal.
  const visit = (start: number, chosen: PlannedTerm[], sum: number) => {
    if (overflow) return;
    if (sum >= need) {
      clauses.push([...chosen]);
      if (clauses.length > MAX_CLAUSES) overflow = true;
      return;
    }
    for (let i = start; i < heavy.length; i++) {
      const rest = heavy.slice(i).reduce((a, t) => a + t.weight, 0);
      if (sum + rest < need) return; // even all the remaining words would fall short
      const term = heavy[i] as PlannedTerm;
      chosen.push(term);
      visit(i + 1, chosen, sum + term.weight);
      chosen.pop();
    }
  };
  visit(0, [], 0);
  if (overflow) {
    // Too many combinations: any word that belongs to some sufficient set may start a relevant passage.
    return usable.map((t) => [t.words]);
  }
  return clauses.map((clause) => clause.map((t) => t.words));
}
