// The text block of an ask_documents result (tools.md rule 3): a readable rendering for clients
// that show text rather than structuredContent — the answer, then each numbered source with its
// location, link and passage. It repeats what the structured result holds, so the two together
// stay within the budget that max_chars sets.
import type { AskDocumentsOutput } from './ask-documents.ts';

export function renderAskDocuments(out: AskDocumentsOutput): string {
  const lines = [out.answer_md];
  if (out.citations.length > 0) {
    lines.push('', 'Sources:');
    for (const c of out.citations) {
      lines.push(`[${c.n}] ${c.title} — ${c.heading} (${c.source}, modified ${c.last_modified.slice(0, 10)}) ${c.url}`);
      lines.push(...c.passage.split('\n').filter((l) => l.trim()).map((l) => `    > ${l}`));
    }
  }
  lines.push('', `Searched ${out.documents_searched} document${out.documents_searched === 1 ? '' : 's'} visible to ${out.scope.user_email} (${out.scope.visibility}).`);
  if (out.truncation_note) lines.push(out.truncation_note);
  return lines.join('\n');
}
