// Turns a free-text question into a bounded list of plain search terms. No character the user types
// ever reaches the FTS5 or tsquery syntax: terms are runs of letters and digits only, so operators
// (AND, OR, NEAR, quotes, `*`, `:`, `!`, `&`, `|`, parentheses), emoji and punctuation all fall away.
const MAX_TERMS = 24;
const MAX_TERM_LENGTH = 40;
/** Longer questions are read only this far (a term list is built from the start of the text). */
const MAX_QUESTION_CHARS = 4000;

// English function words plus the filler of questions ("what does X stand for", "how should we").
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers herself him himself his how ' +
    'i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'us let lets let\'s tell explain describe know need needs want say says said get got give gives please mean means meaning stand stands ' +
    'anything something thing things way ways use used using also may might must shall whats ive im youre dont doesnt isnt ' +
    'find info information document documents doc docs'
  ).split(/\s+/),
);

/** Lower-cased, NFKC-normalized terms of the question without stop words; at most 24, each ≤ 40 chars. */
export function queryTerms(question: string): string[] {
  const text = question.slice(0, MAX_QUESTION_CHARS).normalize('NFKC').toLowerCase();
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    const word = match[0].replace(/['’]s$/u, '').replace(/['’]/gu, '');
    if (word.length === 0 || STOPWORDS.has(word)) continue;
    if (word.length === 1 && !/\p{N}/u.test(word)) continue;
    const term = word.slice(0, MAX_TERM_LENGTH);
    const key = stem(term);
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/**
 * A light English stemmer for matching query terms to passage words in TypeScript (sentence
 * scoring, coverage). The databases stem with their own (Porter, Snowball); this one only has to
 * agree with itself.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  for (const suffix of ['ational', 'ization', 'ations', 'ation', 'ingly', 'ement', 'ments', 'ment', 'ness', 'ings', 'ing', 'ed', 'ers', 'er', 'al', 'ive', 'ize', 'ise', 'ity', 'ies', 'e', 'y']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

/**
 * The stems a question looks for. A scan of a passage stems only the words that could give one of
 * them: stem() keeps a word's first two characters, so a word whose first two differ from every
 * wanted stem's is counted but never stemmed (most words of a passage).
 */
export type WantedStems = { stems: ReadonlySet<string>; leads: Uint8Array; memo: Map<string, string> };

/** 0–35 for an ASCII digit or lower-case letter, -1 otherwise. */
const alnum = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 122 ? c - 87 : -1);

/**
 * A word's first two characters as an index into the leads table (36 × 37: the second may be
 * absent), for words of [a-z0-9] only: a table lookup per word of a passage instead of a Set's
 * (the passage scan was 30% of an ask_documents call; the table cut that scan by a quarter).
 */
const leadIndex = (first: number, second: number) => first * 37 + (second < 0 ? 0 : second + 1);

export function wantedStems(stems: Iterable<string>): WantedStems {
  const set = new Set(stems);
  const leads = new Uint8Array(36 * 37);
  for (const s of set) {
    const first = alnum(s.charCodeAt(0));
    const second = s.length > 1 ? alnum(s.charCodeAt(1)) : -1;
    // A stem that does not start with [a-z0-9] (or whose second character is outside it) can
    // match no word of an ASCII text; the non-ASCII scan stems every word and needs no table.
    if (first >= 0 && (s.length === 1 || second >= 0)) leads[leadIndex(first, second)] = 1;
  }
  // memo: the stems of the words a scan has stemmed (a passage repeats its words; so do passages).
  return { stems: set, leads, memo: new Map() };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Calls `found` for each word of `text` whose stem is wanted; returns the text's length in words. */
function scanWords(text: string, wanted: WantedStems, found: (stem: string) => void): number {
  if (NON_ASCII.test(text)) {
    // Letters beyond ASCII: normalized, every word stemmed (exact, and rare in these documents).
    let length = 0;
    for (const match of text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      length += 1;
      const s = stem(match[0]);
      if (wanted.stems.has(s)) found(s);
    }
    return length;
  }
  // ASCII (NFKC leaves it as is): words are runs of [a-z0-9] after lower-casing, as above.
  const t = text.toLowerCase();
  let length = 0;
  let start = -1;
  for (let i = 0; i <= t.length; i++) {
    const c = i < t.length ? t.charCodeAt(i) : 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    length += 1;
    if (wanted.leads[leadIndex(alnum(t.charCodeAt(start)), i - start > 1 ? alnum(t.charCodeAt(start + 1)) : -1)] === 1) {
      const word = t.slice(start, i);
      let s = wanted.memo.get(word);
      if (s === undefined) wanted.memo.set(word, (s = stem(word)));
      if (wanted.stems.has(s)) found(s);
    }
    start = -1;
  }
  return length;
}

/** The wanted stems that occur in a text. */
export function wordStems(text: string, wanted: WantedStems): Set<string> {
  const out = new Set<string>();
  scanWords(text, wanted, (s) => out.add(s));
  return out;
}

/** How often each wanted stem occurs in a text, and the text's length in words. */
export function stemCounts(text: string, wanted: WantedStems): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  const length = scanWords(text, wanted, (s) => counts.set(s, (counts.get(s) ?? 0) + 1));
  return { counts, length };
}

/**
 * FTS5 query: each word a quoted string (never a bareword operator). `clauses` are OR-ed, the groups
 * of a clause AND-ed, the alternatives of a group OR-ed. A flat list of words is one clause per word.
 */
export function fts5Query(clauses: readonly (string | readonly (readonly string[])[])[]): string {
  // SQLite reads a query string only up to a NUL: it would leave the quote unterminated.
  const quote = (t: string) => `"${t.replaceAll('\0', '').replaceAll('"', '""')}"`;
  const group = (g: readonly string[]) => `(${g.map(quote).join(' OR ')})`;
  return clauses
    .map((c) => (typeof c === 'string' ? [[c]] : c).filter((g) => g.length > 0))
    .filter((c) => c.length > 0)
    .map((c) => `(${c.map(group).join(' AND ')})`)
    .join(' OR ');
}

// A small sales glossary: a question's word also finds the words the documents use for it.
const ALTERNATIVES: Record<string, string[]> = {
  beat: ['win'], defeat: ['win'], compete: ['win'], competing: ['win'], versus: ['vs'], vs: ['versus'],
  cost: ['price'], costs: ['price'], cheaper: ['price'], expensive: ['price'], pricing: ['price'], price: ['pricing'],
  approve: ['approval'], approves: ['approval'], approved: ['approval'], sign: ['signature'], signs: ['signature'],
  reps: ['sellers'], rep: ['seller'], salespeople: ['sellers'], hosted: ['hosting'], host: ['hosting'],
  retained: ['retention', 'kept'], retain: ['retention', 'kept'], keep: ['kept', 'retention'], stored: ['retention', 'hosted'],
  onboard: ['onboarding'], ramp: ['ramp'], commission: ['commission'], bonus: ['spiff'],
};

/** Each term with its glossary alternatives: one group per term, the term first. */
export function termGroups(terms: string[]): string[][] {
  return terms.map((t) => [t, ...(ALTERNATIVES[t] ?? []).filter((a) => a !== t)]);
}
