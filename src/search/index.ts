// The documents store, full-text retrieval and extractive answering behind `ask_documents`.
export { askDocuments, AskDocumentsInput, AskDocumentsOutput, NOT_FOUND } from './ask-documents.ts';
export { renderAskDocuments } from './render.ts';
export { indexDocument, indexDocuments, deleteDocument, DocumentInput, documentSources, type IndexResult } from './documents.ts';
export { documentIndex, type DocumentIndex, type SearchHit, type SearchScope } from './document-index.ts';
export { chunkMarkdown, type Chunk } from './chunking.ts';
export { queryTerms } from './query-terms.ts';
export { seedDemoDocuments, demoDocuments, type DemoTeam, type DemoDocumentsOptions } from './demo/seed.ts';
export type { DocumentSource, DocumentVisibility } from './schema.ts';
