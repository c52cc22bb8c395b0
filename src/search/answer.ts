// Extractive answering: re-scores the retrieved passages, picks the sentences that carry the
// question's terms and cites each with its passage number. Nothing here writes a word that is not
// in a retrieved passage; what is not found is said to be not found.
import { sectionAt, sectionFinder } from './chunking.ts';
import type { SearchHit } from './document-index.ts';
import { stem, stemCounts, wantedStems, wordStems, type WantedStems } from './query-terms.ts';

export type Scored = SearchHit & { relevance: number; matched: number; coverage: number };

/** A passage is relevant when it holds at least half of the question's weight (rare words weigh more). */
export const MIN_COVERAGE = 0.5;
const MAX_PER_DOCUMENT = 2;

/** A term of the question with its glossary alternatives (stemmed) and its weight. */
export type WeightedTerm = { stems: string[]; weight: number };

/**
 * Weights of the question's terms: inverse document frequency over the passages in scope. A word
 * found nowhere weighs as much as the rarest word, so a question about something absent stays
 * ungrounded even when a common word of it matches.
 */
export function weighTerms(groups: string[][], frequencies: number[], passages: number): WeightedTerm[] {
  const n = Math.max(1, passages);
  return groups.map((words, i) => {
    const df = frequencies[i] ?? 0;
    return { stems: [...new Set(words.map(stem))], weight: Math.log(1 + n / Math.max(1, df)) };
  });
}

/** Every stem the terms look for (what a passage scan needs to stem). */
export function wantedOf(terms: WeightedTerm[]): WantedStems {
  return wantedStems(terms.flatMap((t) => t.stems));
}

function has(words: Set<string>, term: WeightedTerm): boolean {
  return term.stems.some((s) => words.has(s));
}

export function isRelevant(hit: { coverage: number }): boolean {
  return hit.coverage >= MIN_COVERAGE;
}

/**
 * Ranks the engine's candidates (the engines only select them), the same way on both dialects: BM25
 * computed here from the question's weights (rarity over the passages in scope); words in the
 * heading or title count extra. Keeps at most two passages per document, and only relevant ones.
 */
export function rerank(hits: SearchHit[], terms: WeightedTerm[], topK: number): Scored[] {
  const K1 = 1.2;
  const B = 0.75;
  const totalWeight = terms.reduce((a, t) => a + t.weight, 0) || 1;
  const wanted = wantedOf(terms);
  const bodies = hits.map((h) => stemCounts(h.text, wanted));
  const avgLength = bodies.reduce((a, b) => a + b.length, 0) / Math.max(1, bodies.length) || 1;
  const lexicals: number[] = [];
  const partial = hits.map((hit, i) => {
    const body = bodies[i] ?? { counts: new Map<string, number>(), length: 0 };
    const head = wordStems(`${hit.heading} ${hit.title}`, wanted);
    let lexical = 0;
    let covered = 0;
    let matched = 0;
    for (const t of terms) {
      const tf = t.stems.reduce((n, s) => n + (body.counts.get(s) ?? 0), 0);
      const inHead = has(head, t);
      if (tf > 0 || inHead) {
        matched += 1;
        covered += t.weight;
      }
      const saturated = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * body.length) / avgLength));
      lexical += t.weight * (saturated + (inHead ? 0.75 : 0));
    }
    lexicals.push(lexical);
    return { hit, lexical, matched, covered };
  });
  const maxLexical = Math.max(...lexicals, Number.EPSILON);
  const scored = partial.map(({ hit, lexical, matched, covered }): Scored => ({
    ...hit,
    relevance: lexical / maxLexical,
    matched,
    coverage: covered / totalWeight,
  }));
  scored.sort((a, b) => b.relevance - a.relevance || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);

  const perDocument = new Map<string, number>();
  const kept: Scored[] = [];
  for (const hit of scored) {
    if (kept.length === topK) break;
    if (!isRelevant(hit)) continue;
    const n = perDocument.get(hit.documentId) ?? 0;
    if (n >= MAX_PER_DOCUMENT) continue;
    perDocument.set(hit.documentId, n + 1);
    kept.push(hit);
  }
  return kept;
}

export type Sentence = { text: string; start: number; end: number };

/** Sentences and list items of a passage with their offsets; headings lines are skipped. */
export function sentencesOf(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const line of text.matchAll(/[^\n]+/g)) {
    const lineStart = line.index ?? 0;
    if (/^#{1,6}\s/.test(line[0])) continue;
    // A sentence ends at . ! or ? followed by a space and a capital, digit or quote ("e.g. the" stays whole).
    let pos = 0;
    for (const part of line[0].split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)) {
      const at = line[0].indexOf(part, pos);
      pos = at + part.length;
      const lead = /^\s*(?:[-*•]|\d+[.)])?\s*/.exec(part)?.[0].length ?? 0;
      const trimmed = part.slice(lead).trim();
      if (trimmed.length < 12) continue;
      const start = lineStart + at + lead;
      out.push({ text: trimmed, start, end: start + trimmed.length });
    }
  }
  return out;
}

export type Statement = { n: number; text: string; heading: string; start: number; end: number };

/**
 * The answer's statements: the best sentences across the cited passages (at most 5, about
 * `maxChars` in all, at most 3 from the best passage and 2 from any other), each tagged with its
 * passage number.
 */
export function pickStatements(passages: Scored[], terms: WeightedTerm[], maxChars: number): Statement[] {
  const wanted = wantedOf(terms);
  const candidates: (Statement & { score: number })[] = [];
  const headingStems = new Map<string, Set<string>>();
  passages.forEach((p, i) => {
    const sectionOf = sectionFinder(p);
    for (const s of sentencesOf(p.text)) {
      const words = wordStems(s.text, wanted);
      const heading = sectionOf(s.start);
      // A term in the sentence's own section heading counts half ("How to respond" → its sentences).
      let headingWords = headingStems.get(heading);
      if (!headingWords) headingStems.set(heading, (headingWords = wordStems(heading, wanted)));
      let score = 0;
      let inSentence = 0;
      for (const t of terms) {
        if (has(words, t)) {
          score += t.weight;
          inSentence += 1;
        } else if (has(headingWords, t)) score += t.weight / 2;
      }
      if (inSentence === 0) continue;
      // Earlier (better ranked) passages win ties; very long sentences are slightly penalised.
      score = score * (1 - i * 0.04) - Math.max(0, s.text.length - 300) / 2000;
      candidates.push({ n: i + 1, text: s.text, heading, start: s.start, end: s.end, score });
    }
  });
  candidates.sort((a, b) => b.score - a.score || a.n - b.n || a.start - b.start);

  const chosen: Statement[] = [];
  const perPassage = new Map<number, number>();
  const seen = new Set<string>();
  let used = 0;
  const best = candidates[0]?.score ?? 0;
  for (const c of candidates) {
    if (chosen.length === 5) break;
    // Weaker sentences are welcome from the best passage, less so from the others.
    if (chosen.length > 0 && c.score < best * (c.n === 1 ? 0.34 : 0.5)) continue;
    const key = c.text.toLowerCase().replace(/\W+/g, ' ');
    if (seen.has(key) || (perPassage.get(c.n) ?? 0) >= (c.n === 1 ? 3 : 2)) continue;
    const text = clip(c.text, 400);
    if (chosen.length > 0 && used + text.length > maxChars) break;
    seen.add(key);
    perPassage.set(c.n, (perPassage.get(c.n) ?? 0) + 1);
    chosen.push({ n: c.n, text, heading: c.heading, start: c.start, end: c.end });
    used += text.length;
  }
  // The question's words may sit only in the title or heading: then the passage's opening sentence
  // under its best-matching section speaks for it.
  const first = passages[0];
  if (chosen.length === 0 && first) {
    const opening = sentencesOf(first.text)[0];
    if (opening) chosen.push({ n: 1, text: clip(opening.text, 400), heading: sectionAt(first, opening.start), start: opening.start, end: opening.end });
  }
  return chosen;
}

/** Cuts text to at most `max` characters at a word boundary, marking the cut with "…". */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A window of the passage of at most `max` characters around [start, end), cut at word edges. */
export function excerpt(text: string, start: number, end: number, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const room = Math.max(0, max - (end - start));
  let from = Math.max(0, start - Math.floor(room / 3));
  let to = Math.min(text.length, from + max);
  from = Math.max(0, to - max);
  if (from > 0) {
    const space = text.indexOf(' ', from);
    if (space !== -1 && space < start) from = space + 1;
  }
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space > Math.max(from, end)) to = space;
  }
  return { text: `${from > 0 ? '…' : ''}${text.slice(from, to).trim()}${to < text.length ? '…' : ''}`, truncated: true };
}
