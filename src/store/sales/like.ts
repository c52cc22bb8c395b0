// How a caller's text (list_meetings' `q`, get_deals' search, an agent's or report's `q`) is found
// in a column: as a substring, ignoring case, the same on both databases whatever their locale.
//
// lower() is not enough beyond ASCII: SQLite's folds ASCII only ("élodie" did not find "Élodie"),
// and PostgreSQL's follows the database's locale (under C only ASCII folds; under a UTF-8 locale
// "Σ" lowers to "σ" where JavaScript's final "ς" stays apart, so "ΟΔΥΣΣΕΑΣ" and "Οδυσσεας" missed
// each other). So a text whose every character is ASCII or has no case takes the fast path, a LIKE
// over the column with ASCII folded, `lower(column) LIKE '%text%'`: SQLite's lower() folds ASCII
// alone; PostgreSQL's does so under the "C" collation, `lower(column COLLATE "C")`, whatever the
// database's locale (~2.5× cheaper than a GLOB on SQLite; on PostgreSQL the locale's lower() cost
// ~2× the C one: an admin's year of meeting texts on W1's dataset, 142 → 73 ms). Any other text is
// tested by character classes this module builds: each letter as every character that shares its
// case key (caseKey), `[éÉ]`. SQLite takes them as a GLOB over lower(column) (its lower() folds
// exactly ASCII, so ASCII letters stay literal);
// PostgreSQL as a regular expression over the column itself, every letter a class, so its locale
// plays no part. What remains apart: a letter whose case changes its length ("ß" and "SS", "İ" and
// "i̇"), letters with and without accents, and the characters a locale lowers into ASCII, on
// neither database folded on the fast path ("istanbul" does not find "İSTANBUL", nor "kelvin" a
// "KELVIN" spelt with the Kelvin sign; PostgreSQL's locale lower() found both until its fast path
// folded ASCII alone too).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { capabilitiesOf } from '../database.ts';
import { FIELD_SEPARATOR } from '../migrations/0020-meeting-search-text.ts';

/**
 * A text as a column test: the operator and its one bound pattern, and whether the text holds
 * U+001F, the separator of the fields a meeting's one text joins (migration 0020): such a text is
 * tested field by field. The fast path is `like` on SQLite and `like-c` on PostgreSQL (its lower()
 * under the "C" collation); both fold ASCII alone.
 */
export type TextPattern = { op: 'like' | 'like-c' | 'glob' | 'regex'; pattern: string; fieldsApart: boolean };

/** One character (a code point) of a string that may be longer. */
const isOne = (s: string) => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff);

/** A character's lowercase, when that is one character ("İ" lowers to two, and stays). */
function lowerChar(c: string): string {
  const lower = c.toLowerCase();
  return isOne(lower) ? lower : c;
}

/** Whether a character has no case: it is its own lowercase and uppercase. */
export const uncased = (c: string) => c.toLowerCase() === c && c.toUpperCase() === c;

/**
 * The key under which a character's cases meet: its lowercase, and "σ" for the final "ς" (both
 * lowercases of "Σ"). ASCII letters keep to ASCII: the Kelvin sign lowers to "k" but is its own
 * (a LIKE over SQLite's lower() would not find it), so it never joins k's class.
 */
export function caseKey(c: string): string {
  const lower = lowerChar(c);
  if (lower === 'ς') return 'σ';
  return lower < '\u0080' && c >= '\u0080' ? c : lower;
}

/**
 * Every non-ASCII character by its case key, where more than one shares it. Built on first use
 * from every code point of planes 0 and 1 (~45 ms once, on a 2-core AMD EPYC); a text of ASCII and
 * uncased characters never builds it.
 */
let byKey: Map<string, string[]> | undefined;
function casesByKey(): Map<string, string[]> {
  if (byKey) return byKey;
  const sets = new Map<string, Set<string>>();
  for (let cp = 0x80; cp < 0x20000; cp++) {
    if (cp >= 0xd800 && cp < 0xe000) continue;
    const c = String.fromCodePoint(cp);
    if (uncased(c)) continue;
    const key = caseKey(c);
    const set = sets.get(key) ?? new Set<string>();
    sets.set(key, set.add(c));
  }
  return (byKey = new Map([...sets].map(([key, set]) => [key, [...set]])));
}

/** The characters a text's character matches: itself, alone, or every character of its case key. */
export function casesOf(c: string): string[] {
  if (c < '\u0080') return c.toLowerCase() === c.toUpperCase() ? [c] : [c.toLowerCase(), c.toUpperCase()];
  if (uncased(c)) return [c];
  const cases = casesByKey().get(caseKey(c)) ?? [c];
  return cases.includes(c) ? cases : [c, ...cases];
}

/** Whether a text takes the fast path: every character ASCII or without case. */
export const isPlain = (text: string) => [...text].every((c) => c < '\u0080' || uncased(c));

/**
 * A text as its case keys, to find one text in another in JavaScript as the databases do (a
 * transcript's `q`): toLowerCase() alone lowers a word-final "Σ" to "ς", so "ΟΔΥΣ" missed
 * "ΟΔΥΣΣΕΑΣ", and turns "İ" and the Kelvin sign into ASCII. Lowered as a whole with ς as σ, which
 * is each character's case key for every character but those two (checked over every code point),
 * else character by character.
 */
export function foldCase(text: string): string {
  return /[\u0130\u212a]/.test(text) ? Array.from(text, caseKey).join('') : text.toLowerCase().replaceAll('ς', 'σ');
}

/** A LIKE pattern for `lower(column)` holding the text, its wildcards escaped. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A GLOB over SQLite's lower(column): ASCII as lowered, other letters as classes, GLOB's own wildcards as one-character classes. */
function globPattern(chars: string[]): string {
  const part = (c: string) => {
    if (c === '*' || c === '?' || c === '[') return `[${c}]`;
    if (c < '\u0080') return c.toLowerCase();
    const cases = casesOf(c);
    return cases.length === 1 ? c : `[${cases.join('')}]`;
  };
  return `*${chars.map(part).join('')}*`;
}

/** A regular expression (PostgreSQL's) over the column: every letter a class, every other character but ASCII letters and digits by its code. */
function regexPattern(chars: string[]): string {
  const code = (c: string) => {
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  };
  const one = (c: string) => (/^[a-z0-9]$/i.test(c) ? c : code(c));
  const part = (c: string) => {
    const cases = casesOf(c);
    return cases.length === 1 ? one(cases[0]!) : `[${cases.map(one).join('')}]`;
  };
  return chars.map(part).join('');
}

/** The test of a text on a database: the fast path for plain texts, else that database's classes. */
export function textPattern(db: Kysely<Database>, text: string): TextPattern {
  const fieldsApart = text.includes(FIELD_SEPARATOR);
  const sqlite = capabilitiesOf(db).caseClasses === 'glob';
  if (isPlain(text)) return { op: sqlite ? 'like' : 'like-c', pattern: containsPattern(text), fieldsApart };
  // A lone surrogate as the drivers send it (U+FFFD): PostgreSQL refuses one in a pattern.
  const chars = [...text.toWellFormed()];
  return sqlite ? { op: 'glob', pattern: globPattern(chars), fieldsApart } : { op: 'regex', pattern: regexPattern(chars), fieldsApart };
}

/** `column` holds the pattern's text (the operator is part of the statement, the pattern is bound). */
export function textTest(column: RawBuilder<unknown>, p: TextPattern): RawBuilder<boolean> {
  if (p.op === 'glob') return sql<boolean>`lower(${column}) glob ${p.pattern}`;
  if (p.op === 'regex') return sql<boolean>`${column} ~ ${p.pattern}`;
  if (p.op === 'like-c') return sql<boolean>`lower(${column} collate "C") like ${p.pattern} escape '\\'`;
  return sql<boolean>`lower(${column}) like ${p.pattern} escape '\\'`;
}

/** A column of the query holds the text, ignoring case. */
export function ilike(db: Kysely<Database>, column: string, text: string): RawBuilder<boolean> {
  return textTest(sql.ref(column), textPattern(db, text));
}
