// ask_documents (tools.md): retrieval over the caller's visible document passages and an extractive,
// cited answer. The input and output schemas are written for the model that calls the tool; the MCP
// wrapper (src/mcp/tools/ask-documents.ts) builds the tool from them.
import { z } from 'zod';
import type { Principal } from '../access/principal.ts';
import type { Store } from '../store/database.ts';
import { clip, excerpt, MIN_COVERAGE, pickStatements, rerank, sentencesOf, wantedOf, weighTerms, type Scored, type WeightedTerm } from './answer.ts';
import { planRetrieval } from './retrieval-plan.ts';
import { sectionAt } from './chunking.ts';
import { documentIndex, type SearchScope } from './document-index.ts';
import { headFirst } from './hit-row.ts';
import { cachedFrequencies } from './frequency-cache.ts';
import { documentSources } from './documents.ts';
import { queryTerms, termGroups, wordStems } from './query-terms.ts';
import { visibleDocuments } from './scope-sql.ts';

export const NOT_FOUND = 'Not found in the indexed documents';
const ANSWER_PASSAGE_CHARS = 700;
const MAX_PASSAGE_CHARS = 4000;
const ANSWER_CHARS = 1500;

export const AskDocumentsInput = z.strictObject({
  question: z
    .string()
    .trim()
    .min(1)
    .max(4000)
    .describe('What to look up in the sales-enablement documents (playbooks, battlecards, pricing guides, objection handling, security FAQ, methodology and onboarding guides), in plain language, e.g. "Who approves a 25% discount?". Search operators are not needed and are ignored.'),
  mode: z
    .enum(['answer', 'passages'])
    .default('answer')
    .describe('"answer" (default): a short extractive answer whose every statement cites a numbered passage. "passages": the best matching passages in full (up to the size budget), no summary.'),
  sources: z
    .array(z.enum(documentSources))
    .max(4)
    .optional()
    .describe('Only search documents from these sources: google_drive, onedrive, highspot, upload. Omit to search all.'),
  document_ids: z
    .array(z.string().min(1).max(100))
    .max(50)
    .optional()
    .describe('Only search these documents: ids from citations[].document_id of an earlier ask_documents result. Omit to search all.'),
  top_k: z.number().int().min(1).max(10).default(5).describe('How many passages to retrieve and cite, 1–10 (default 5).'),
  max_chars: z
    .number()
    .int()
    .min(1000)
    .max(30000)
    .default(12000)
    .describe('Size budget for the answer and passages together, in characters (default 12,000 ≈ 3,000 tokens; max 30,000). Longer passages are cut and flagged truncated.'),
});
export type AskDocumentsInput = z.output<typeof AskDocumentsInput>;

const Citation = z.object({
  n: z.number().int().describe('Citation number; the answer cites it as [n].'),
  document_id: z.string().describe('Document id; pass it in document_ids to search only this document.'),
  title: z.string().describe('Document title.'),
  source: z.enum(documentSources).describe('Where the document lives.'),
  url: z.string().describe('Link to the document in its source system.'),
  heading: z.string().describe('The section of the document the passage comes from.'),
  chunk_index: z.number().int().describe('Position of the passage within the document (0-based).'),
  last_modified: z.string().describe('When the document was last modified, ISO 8601 with offset.'),
  passage: z.string().describe('The passage text (an excerpt around the cited sentences in answer mode).'),
  passage_truncated: z.boolean().describe('True when the passage was cut to fit the size budget ("…" marks the cut).'),
});

export const AskDocumentsOutput = z.object({
  answer_md: z.string().describe(`Markdown answer; every statement ends with its citation [n]. When nothing relevant is found: "${NOT_FOUND}…" and grounded is false.`),
  grounded: z.boolean().describe('True when the answer comes from passages that match the question; false means not found — do not guess.'),
  mode: z.enum(['answer', 'passages']),
  citations: z.array(Citation).describe('The retrieved passages, best first, numbered 1..n.'),
  documents_searched: z.number().int().describe('How many documents the search covered (the caller’s visible documents after the filters).'),
  query_terms: z.array(z.string()).describe('The words actually searched for (stop words and symbols dropped). Rephrase with other keywords if nothing was found.'),
  truncated: z.boolean().describe('True when passages were cut to stay within max_chars.'),
  truncation_note: z.string().nullable().describe('What was cut and how to get more, when truncated.'),
  scope: z.object({
    user_email: z.string(),
    role: z.string(),
    visibility: z.string().describe('Which documents the caller can see.'),
  }),
  filters: z.object({
    sources: z.array(z.string()).nullable(),
    document_ids: z.array(z.string()).nullable(),
    top_k: z.number().int(),
  }),
});
export type AskDocumentsOutput = z.output<typeof AskDocumentsOutput>;
type Citation = z.output<typeof Citation>;

function scopeOf(principal: Principal, args: AskDocumentsInput): SearchScope {
  return { orgId: principal.orgId, teamIds: principal.teamIds, sources: args.sources, documentIds: args.document_ids };
}

/**
 * Visible documents and their passages: from the totals the triggers keep (a few rows per
 * organization), or, when the question names documents, from those documents themselves.
 */
async function countDocuments(store: Store, scope: SearchScope): Promise<{ documents: number; passages: number }> {
  const row = scope.documentIds?.length
    ? await store.db
        .selectFrom('documents as d')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('d.chunk_count').as('chunks')])
        .where(visibleDocuments(scope))
        .executeTakeFirst()
    : await store.db
        .selectFrom('document_totals as d')
        .select((eb) => [eb.fn.sum<number>('d.documents').as('n'), eb.fn.sum<number>('d.chunks').as('chunks')])
        .where(visibleDocuments(scope))
        .executeTakeFirst();
  return { documents: Number(row?.n ?? 0), passages: Number(row?.chunks ?? 0) };
}

/** Frequencies are counted up to this many passages; above it a word is common anyway. */
const FREQUENCY_CAP = 1000;


function iso(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

function citation(hit: Scored, n: number, passage: { text: string; truncated: boolean }, heading: string): Citation {
  return {
    n,
    document_id: hit.documentId,
    title: hit.title,
    source: hit.source,
    url: hit.url,
    heading,
    chunk_index: hit.chunkIndex,
    last_modified: iso(hit.lastModified),
    passage: passage.text,
    passage_truncated: passage.truncated,
  };
}

/** The best sentence of a passage for the question (for the excerpt window and the heading). */
function bestSpan(hit: Scored, terms: WeightedTerm[]): { start: number; end: number } {
  let best = { start: 0, end: Math.min(hit.text.length, 1), score: -1 };
  const wanted = wantedOf(terms);
  for (const s of sentencesOf(hit.text)) {
    const words = wordStems(s.text, wanted);
    const score = terms.filter((t) => t.stems.some((st) => words.has(st))).reduce((a, t) => a + t.weight, 0);
    if (score > best.score) best = { start: s.start, end: s.end, score };
  }
  return best;
}

function notFound(reason: string, base: Omit<AskDocumentsOutput, 'answer_md' | 'grounded' | 'citations' | 'truncated' | 'truncation_note'>): AskDocumentsOutput {
  return { ...base, answer_md: `${NOT_FOUND}: ${reason}`, grounded: false, citations: [], truncated: false, truncation_note: null };
}

/** Answers `args.question` from the documents `principal` may see. Never throws on odd questions. */
export async function askDocuments(store: Store, principal: Principal, args: AskDocumentsInput): Promise<AskDocumentsOutput> {
  const scope = scopeOf(principal, args);
  const topK = Math.min(10, Math.max(1, args.top_k));
  const maxChars = Math.min(30000, Math.max(1000, args.max_chars));
  const terms = queryTerms(args.question);
  const teams = principal.teamIds.length;
  const counts = await countDocuments(store, scope);
  const base = {
    mode: args.mode,
    documents_searched: counts.documents,
    query_terms: terms,
    scope: {
      user_email: principal.email,
      role: principal.role,
      visibility: `org-visible documents${teams ? ` and team documents of your ${teams} team${teams === 1 ? '' : 's'}` : ''}`,
    },
    filters: { sources: args.sources ?? null, document_ids: args.document_ids ?? null, top_k: topK },
  };
  const question = clip(args.question.replace(/\s+/g, ' '), 200);
  if (terms.length === 0) {
    return notFound(`the question has no searchable words (only stop words, symbols or punctuation). Ask with specific keywords, e.g. "discount approval" or "SOC 2 report".`, base);
  }
  if (base.documents_searched === 0) {
    return notFound(`no documents are visible to you${args.sources || args.document_ids ? ' with these filters (sources / document_ids); remove them to search everything' : ''}.`, base);
  }

  const index = documentIndex(store);
  const groups = termGroups(terms);
  // A word found in FREQUENCY_CAP passages or more is common: its weight is estimated as if it
  // were in a tenth of them (or the cap, if more), which keeps counting bounded on large corpora.
  const counted = await cachedFrequencies(store.db, index, scope, counts, groups, FREQUENCY_CAP);
  const frequencies = counted.map((n) => (n >= FREQUENCY_CAP ? Math.max(n, Math.ceil(counts.passages / 10)) : n));
  const weighted = weighTerms(groups, frequencies, counts.passages);
  const absent = groups.filter((_, i) => (frequencies[i] ?? 0) === 0).map((g) => g[0]);
  const nothing = () =>
    notFound(
      `none of the ${base.documents_searched} documents you can see has a passage that matches “${question}”.${absent.length ? ` No visible document mentions: ${absent.join(', ')}.` : ''} Try other keywords; do not rely on a guess.`,
      base,
    );
  const plan = planRetrieval(
    groups.map((words, i) => ({ words, weight: weighted[i]?.weight ?? 0, known: (frequencies[i] ?? 0) > 0 })),
    MIN_COVERAGE,
  );
  if (!plan) return nothing();
  // First the passages holding every word the documents know (the most selective query, cheap on a
  // large corpus); only when they do not fill top_k, every passage that could be relevant.
  const limit = Math.max(30, topK * 6);
  const known = groups.filter((_, i) => (frequencies[i] ?? 0) > 0);
  // Passages with any of the question's words in their title or heading are offered first.
  const headWords = known.flat();
  // Every word common (counted up to the cap): the passages holding all of them are likely many.
  const common = counted.every((n) => n === 0 || n >= FREQUENCY_CAP);
  let candidates = known.length > 1 && plan.length > 1 ? await index.search(scope, [known], limit, { headWords, common }) : [];
  let passages = rerank(candidates, weighted, topK);
  if (passages.length < topK) {
    const more = await index.search(scope, plan, limit, { headWords, common });
    candidates = headFirst(more, candidates);
    passages = rerank(candidates, weighted, topK);
  }
  if (passages.length === 0) return nothing();

  if (args.mode === 'passages') {
    const budget = Math.max(200, Math.min(MAX_PASSAGE_CHARS, Math.floor((maxChars - 200 * passages.length) / passages.length)));
    const citations = passages.map((hit, i) => {
      const span = bestSpan(hit, weighted);
      const text = hit.text.length > budget ? { text: clip(hit.text, budget), truncated: true } : { text: hit.text, truncated: false };
      return citation(hit, i + 1, text, sectionAt(hit, span.start));
    });
    const lines = citations.map((c) => `${c.n}. **${c.title}** — ${c.heading} [${c.n}]`);
    return finish(base, `Passages matching “${question}”, best first:\n${lines.join('\n')}`, citations, budget);
  }

  const statements = pickStatements(passages, weighted, Math.max(300, Math.min(ANSWER_CHARS, Math.floor(maxChars / 4))));
  const perPassage = Math.max(160, Math.min(ANSWER_PASSAGE_CHARS, Math.floor((maxChars - ANSWER_CHARS) / passages.length)));
  const citations = passages.map((hit, i) => {
    const own = statements.filter((s) => s.n === i + 1);
    const span = own.length ? { start: Math.min(...own.map((s) => s.start)), end: Math.max(...own.map((s) => s.end)) } : bestSpan(hit, weighted);
    return citation(hit, i + 1, excerpt(hit.text, span.start, span.end, perPassage), own[0]?.heading ?? sectionAt(hit, span.start));
  });
  const bullets = statements.map((s) => `- ${s.text.replace(/\[(\d+)\]/g, '($1)')} [${s.n}]`);
  return finish(base, bullets.join('\n'), citations, perPassage);
}

function finish(base: Omit<AskDocumentsOutput, 'answer_md' | 'grounded' | 'citations' | 'truncated' | 'truncation_note'>, answer: string, citations: Citation[], perPassage: number): AskDocumentsOutput {
  const cut = citations.filter((c) => c.passage_truncated).map((c) => c.n);
  return {
    ...base,
    answer_md: answer,
    grounded: true,
    citations,
    truncated: cut.length > 0,
    truncation_note: cut.length
      ? `Passages ${cut.map((n) => `[${n}]`).join(', ')} were cut to ${perPassage} characters. For more text, call again with mode "passages", a larger max_chars, a smaller top_k, or document_ids of one document.`
      : null,
  };
}
