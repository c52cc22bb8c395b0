// Which trigrams of a `q` the trigram index (migrations 0016, 0017) may be asked for, so that the
// rows it proposes include every meeting the text matches (meeting-text.ts). The index folds case
// its own way, the same for what it stores and what it is asked: FTS5 by its Unicode tables on
// SQLite, lower() under the database's locale on PostgreSQL (meeting_text_keys). A text matches by
// like.ts:
// - a plain text (ASCII and uncased characters) by `lower(column) LIKE` with ASCII folded alone: on
//   SQLite, which FTS5 folds alike, every trigram may be asked; on PostgreSQL (lower() under the "C"
//   collation) those of uncased characters, and of ASCII letters where the locale's lower() folds
//   ASCII alike, one character at a time.
// - any other text by classes of each letter's cases (caseKey). A trigram may be asked only when
//   the index folds every case of each of its letters to one: a letter with one case, or one whose
//   cases all lie where the folds were checked against caseKey, character by character, on both
//   databases (test/store/text-match.test.ts): ASCII, U+0080–U+04FF but U+037F (Latin, IPA, Greek,
//   Cyrillic), U+1E00–U+1FFF (Latin and Greek extended), and the Ohm, Kelvin and Angstrom signs;
//   FTS5's tables predate some later letters (Georgian Mtavruli, Cherokee, Latin Extended-D). On
//   PostgreSQL only where its lower() folds them so in this database (checked once per pool: under a
//   C locale only ASCII folds; under some ICU locales a character lowers by its neighbours, and
//   then no such text is probed), and never σ, ς, Σ: lower() keeps the final ς apart.
// A text with no such trigram is read by the walk.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { capabilitiesOf } from '../database.ts';
import { caseKey, casesOf, isPlain } from './like.ts';

/** Whether the index folds every case of a character to one (for a text that is not plain). */
export type IndexFolds = (c: string) => boolean;

const SIGMAS = new Set(['σ', 'ς', 'Σ']);

/** The characters whose folds were checked, beyond ASCII (see the module comment). */
export function inCheckedRange(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return (cp >= 0x80 && cp < 0x500 && cp !== 0x37f) || (cp >= 0x1e00 && cp < 0x2000) || cp === 0x2126 || cp === 0x212a || cp === 0x212b;
}

/** A character of one case (or none), or one whose every case passes `member`. */
const foldsBy = (member: (c: string) => boolean) => (c: string) => {
  const cases = casesOf(c);
  return cases.length === 1 || cases.every(member);
};

const isAscii = (c: string) => c < '\u0080';

/** FTS5 folds ASCII and the checked ranges as caseKey does. */
export const sqliteFolds: IndexFolds = foldsBy((c) => isAscii(c) || inCheckedRange(c));

/**
 * What PostgreSQL's lower() does in this database: whether it folds ASCII and the checked letters
 * as caseKey does, and whether it lowers each character alone (`context`: ICU's Turkish and Azeri
 * drop a U+0307 after "I", its Lithuanian adds one before an accent).
 */
export type PostgresLower = { ascii: boolean; letters: boolean; context: boolean };

/** PostgreSQL's folds, given what its lower() does here: none where it reads characters in context. */
export const postgresFolds = (lower: PostgresLower): IndexFolds =>
  lower.context ? foldsBy((c) => (isAscii(c) ? lower.ascii : lower.letters && inCheckedRange(c) && !SIGMAS.has(c))) : () => false;

/** Every letter of the checked ranges with another lowercase, and that lowercase (as one string each). */
function checkedLetters(): { upper: string; lower: string } {
  let upper = '';
  let lower = '';
  for (let cp = 0x80; cp < 0x2200; cp++) {
    const c = String.fromCodePoint(cp);
    if (!inCheckedRange(c) || SIGMAS.has(c)) continue;
    const l = c.toLowerCase();
    if (l !== c && [...l].length === 1) [upper, lower] = [upper + c, lower + l];
  }
  return { upper, lower };
}

const lowerOfPool = new WeakMap<object, Promise<PostgresLower>>();

/** What this PostgreSQL database's lower() folds, asked once per pool (a handle's adapter). */
export function postgresLower(db: Kysely<Database>): Promise<PostgresLower> {
  const pool = db.getExecutor().adapter;
  let known = lowerOfPool.get(pool);
  if (!known) {
    const letters = checkedLetters();
    const asking = sql<{ ascii: boolean; letters: boolean; context: boolean }>`select lower(${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'}::text) = ${'abcdefghijklmnopqrstuvwxyz'} as ascii,
      lower(${letters.upper}::text) = ${letters.lower} as letters, lower(${'I\u0307\u0301J\u0301'}::text) = ${'i\u0307\u0301j\u0301'} as context`.execute(db);
    known = asking.then((r) => ({ ascii: r.rows[0]?.ascii === true, letters: r.rows[0]?.letters === true, context: r.rows[0]?.context === true }));
    // A failed question is asked again next time.
    known.catch(() => lowerOfPool.delete(pool));
    lowerOfPool.set(pool, known);
  }
  return known;
}

/**
 * The folds a probe of this text may rely on, on this database. On SQLite any, for a plain text
 * (like.ts: its lower() and FTS5 fold ASCII alike). On PostgreSQL a plain text is tested with ASCII
 * folded by the "C" collation and the index folds by the locale's lower(), so its ASCII letters
 * only where that lower() folds ASCII alike and one character at a time (not under ICU's Turkish,
 * where "I" lowers to "ı", or Lithuanian): postgresFolds, which lets every uncased character through.
 */
export async function indexFoldsFor(db: Kysely<Database>, text: string): Promise<IndexFolds> {
  if (capabilitiesOf(db).fullText === 'fts5') return isPlain(text) ? () => true : sqliteFolds;
  return postgresFolds(await postgresLower(db));
}

/**
 * The trigrams (characters, not bytes, each by its case key) a probe asks for: one every third
 * character and the last (which may overlap the one before), covering the text, among those whose
 * characters `folds` allows. Any of a text's trigrams gives a superset of the rows that hold it,
 * and the text's own test decides, so the answers are the same as with every trigram; each one
 * asked costs its list of rows, and most overlap the next without narrowing much. A manager of
 * 16's "acme insurance" read the same 60 rows from his owners' ranges in ~7 ms with 5 trigrams,
 * ~31 ms with all 12 ("kowalski": 1,216 rows, ~4 ms with 3, ~11 with 6; SQLite, W1's dataset,
 * 2-core Xeon). None: the text is left to the walk.
 */
export function probeTrigrams(text: string, folds: IndexFolds = () => true): string[] {
  const chars = [...text];
  const keys = chars.map(caseKey);
  const allowed = chars.map((c) => folds(c));
  const usable = (i: number) => allowed[i]! && allowed[i + 1]! && allowed[i + 2]!;
  const grams = new Set<string>();
  const gram = (i: number) => keys.slice(i, i + 3).join('');
  let last = -1;
  for (let i = 0; i + 3 <= chars.length; i++) if (usable(i)) last = i;
  for (let i = 0; i + 3 <= chars.length; ) {
    if (!usable(i)) i += 1;
    else {
      grams.add(gram(i));
      i += 3;
    }
  }
  if (last >= 0) grams.add(gram(last));
  return [...grams];
}
