// ask_documents: cited, extractive answers from the caller's visible documents. Retrieval and
// answering live in src/search (askDocuments); this file only makes it a tool.
import { defineTool, readOnly } from '../define-tool.ts';
import { askDocuments, AskDocumentsInput, AskDocumentsOutput } from '../../search/index.ts';

export const askDocumentsTool = defineTool({
  name: 'ask_documents',
  title: 'Ask documents',
  description:
    'Answers a question from the sales-enablement documents you can see (playbooks, battlecards, pricing guides, objection handling, security FAQ): an extractive answer in which every statement cites a numbered passage [n] with document title, url and heading, or "not found in the indexed documents" (grounded: false) when nothing relevant matches — then do not guess. mode "passages" returns the best passages instead. Narrow with sources or document_ids; top_k up to 10.',
  inputSchema: AskDocumentsInput,
  outputSchema: AskDocumentsOutput,
  annotations: readOnly('Ask documents'),
  async handler(args, ctx) {
    return { structured: await askDocuments(ctx.store, ctx.principal, args) };
  },
});
