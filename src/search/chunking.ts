// Splits a Markdown document into passages of ~300–800 words along its headings, so a citation can
// name the section it came from. Small neighbouring sections are merged (their headings joined with
// " · "); a long section is cut at paragraph boundaries into pieces of about MAX_WORDS.
export type Chunk = { index: number; heading: string; text: string };

export const MIN_WORDS = 300;
export const MAX_WORDS = 800;
/** A paragraph longer than this is cut at sentence ends (then at word boundaries). */
const MAX_PARAGRAPH_WORDS = 400;

type Section = { heading: string; paragraphs: string[] };

function wordCount(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

function sectionsOf(markdown: string, title: string): Section[] {
  const sections: Section[] = [];
  let current: Section = { heading: title, paragraphs: [] };
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join('\n').trim();
    if (text) current.paragraphs.push(text);
    paragraph = [];
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1]) {
      flush();
      if (current.paragraphs.length) sections.push(current);
      current = { heading: heading[1].trim(), paragraphs: [] };
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line.trimEnd());
    }
  }
  flush();
  if (current.paragraphs.length) sections.push(current);
  return sections;
}

function splitLongParagraph(paragraph: string): string[] {
  if (wordCount(paragraph) <= MAX_PARAGRAPH_WORDS) return [paragraph];
  const pieces: string[] = [];
  let piece: string[] = [];
  let pieceWords = 0;
  for (const sentence of paragraph.split(/(?<=[.!?])\s+/)) {
    const words = sentence.split(/\s+/).filter(Boolean);
    // A "sentence" that is itself too long (no punctuation) is cut by words.
    const parts = words.length > MAX_PARAGRAPH_WORDS ? chunked(words, MAX_PARAGRAPH_WORDS) : [words];
    for (const part of parts) {
      if (pieceWords > 0 && pieceWords + part.length > MAX_PARAGRAPH_WORDS) {
        pieces.push(piece.join(' '));
        piece = [];
        pieceWords = 0;
      }
      piece.push(part.join(' '));
      pieceWords += part.length;
    }
  }
  if (pieceWords > 0) pieces.push(piece.join(' '));
  return pieces;
}

function chunked<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Chunks of a Markdown body; an empty body gives no chunks. */
export function chunkMarkdown(markdown: string, title: string): Chunk[] {
  const pieces: { heading: string; text: string; words: number }[] = [];
  for (const section of sectionsOf(markdown, title)) {
    let text = '';
    let words = 0;
    for (const paragraph of section.paragraphs.flatMap(splitLongParagraph)) {
      const n = wordCount(paragraph);
      if (text && words + n > MAX_WORDS) {
        pieces.push({ heading: section.heading, text, words });
        text = '';
        words = 0;
      }
      text = text ? `${text}\n\n${paragraph}` : paragraph;
      words += n;
    }
    if (text) pieces.push({ heading: section.heading, text, words });
  }

  // Merge small neighbours while the merged passage stays within MAX_WORDS.
  const merged: { headings: string[]; text: string; words: number }[] = [];
  for (const piece of pieces) {
    const last = merged.at(-1);
    if (last && last.words < MIN_WORDS && last.words + piece.words <= MAX_WORDS) {
      // The merged text keeps each section's heading as a Markdown line, so an excerpt can be traced
      // back to its own section (sectionAt).
      const newSection = last.headings.at(-1) !== piece.heading;
      if (newSection) last.headings.push(piece.heading);
      last.text = `${last.text}\n\n${newSection ? `## ${piece.heading}\n\n` : ''}${piece.text}`;
      last.words += piece.words;
    } else {
      merged.push({ headings: [piece.heading], text: piece.text, words: piece.words });
    }
  }
  return merged.map((m, index) => ({ index, heading: m.headings.join(' · '), text: m.text }));
}

export { wordCount };

/** The heading of the section that holds character `offset` of a chunk's text (see the merge above). */
export function sectionAt(chunk: { heading: string; text: string }, offset: number): string {
  return sectionFinder(chunk)(offset);
}

/** sectionAt for many offsets of one chunk: its section headings are found once. */
export function sectionFinder(chunk: { heading: string; text: string }): (offset: number) => string {
  const first = chunk.heading.split(' · ')[0] ?? chunk.heading;
  const starts: { at: number; heading: string }[] = [];
  for (const m of chunk.text.matchAll(/^## (.+)$/gm)) starts.push({ at: m.index ?? 0, heading: m[1] ?? first });
  return (offset) => {
    let heading = first;
    for (const s of starts) {
      if (s.at > offset) break;
      heading = s.heading;
    }
    return heading;
  };
}
