// The quality check of ask_documents over the demo documents, on both dialects: how many of the
// fixed questions find their answering passage among the top 3 citations, and "not found" for
// questions the documents do not answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { askDocuments, AskDocumentsInput } from '../../src/search/index.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { openSearchFixture, type SearchFixture } from './fixture.ts';
import { QUALITY_FLOOR, QUALITY_QUESTIONS, UNANSWERABLE } from './questions.ts';

for (const dialect of dialectsUnderTest()) {
  describe(`ask_documents quality (${dialect})`, () => {
    let f: SearchFixture;
    before(async () => {
      f = await openSearchFixture(dialect);
    });
    after(() => f.cleanup());

    it(`should find the answering passage in the top 3 for at least ${QUALITY_FLOOR} of ${QUALITY_QUESTIONS.length} questions`, async (t) => {
      assert.ok(QUALITY_QUESTIONS.length >= 20);
      const misses: string[] = [];
      for (const q of QUALITY_QUESTIONS) {
        const out = await askDocuments(f.store, f.member(), AskDocumentsInput.parse({ question: q.question }));
        const top3 = out.citations.slice(0, 3);
        let found = false;
        for (const c of top3) {
          if (c.title !== q.title) continue;
          // The passage holds the expected section (a passage may merge small neighbouring sections).
          const chunk = await f.store.db
            .selectFrom('document_chunks')
            .select('heading')
            .where('org_id', '=', f.northwind.orgId)
            .where('document_id', '=', c.document_id)
            .where('idx', '=', c.chunk_index)
            .executeTakeFirstOrThrow();
          if (chunk.heading.split(' · ').includes(q.heading)) found = true;
        }
        if (!found) misses.push(`${q.question} → ${top3.map((c) => `${c.title} — ${c.heading}`).join(' | ') || '(nothing)'}`);
      }
      const hits = QUALITY_QUESTIONS.length - misses.length;
      t.diagnostic(`${dialect}: ${hits}/${QUALITY_QUESTIONS.length} questions answered in the top 3`);
      for (const miss of misses) t.diagnostic(`miss: ${miss}`);
      assert.ok(hits >= QUALITY_FLOOR, `only ${hits}/${QUALITY_QUESTIONS.length} in the top 3:\n${misses.join('\n')}`);
    });

    it('should answer "not found" instead of guessing when the documents do not cover the question', async () => {
      for (const question of UNANSWERABLE) {
        const out = await askDocuments(f.store, f.member(), AskDocumentsInput.parse({ question }));
        assert.equal(out.grounded, false, question);
        assert.deepEqual(out.citations, []);
        assert.match(out.answer_md, /^Not found in the indexed documents/);
      }
    });
  });
}
