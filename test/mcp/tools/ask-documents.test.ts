import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, ok, seededStore, type Seeded } from '../support.ts';

type Out = { answer_md: string; grounded: boolean; citations: { n: number; title: string; url: string; heading: string; passage: string }[]; documents_searched: number };

for (const dialect of dialectsUnderTest()) {
  describe(`ask_documents (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect);
    });
    after(() => s.cleanup());

    it('answers from the demo documents with numbered citations', async () => {
      const out = ok<Out>('ask_documents', await s.call(EMAILS.mia, 'ask_documents', { question: 'Who approves a discount above 20 percent?' }));
      assert.equal(out.grounded, true);
      assert.ok(out.documents_searched > 0);
      assert.ok(out.citations.length > 0);
      assert.match(out.answer_md, /\[1\]/);
      for (const c of out.citations) assert.ok(c.title && c.url && c.passage);
    });

    it('says not found instead of guessing', async () => {
      const out = ok<Out>('ask_documents', await s.call(EMAILS.mia, 'ask_documents', { question: 'xylophone quarantine zeppelin' }));
      assert.equal(out.grounded, false);
      assert.match(out.answer_md, /not found in the indexed documents/i);
    });

    it('searches only the caller\'s organization', async () => {
      const nw = ok<Out>('ask_documents', await s.call(EMAILS.ada, 'ask_documents', { question: 'discount approval' }));
      const gx = ok<Out>('ask_documents', await s.call(EMAILS.gia, 'ask_documents', { question: 'discount approval' }));
      assert.ok(nw.documents_searched > gx.documents_searched);
      // Every passage cited to a Globex user comes from a Globex document, and likewise for Northwind.
      const urlsOf = async (email: string) => {
        const orgId = (await s.principal(email)).orgId;
        return new Set((await s.store.db.selectFrom('documents').select('url').where('org_id', '=', orgId).execute()).map((d) => d.url));
      };
      const [gxUrls, nwUrls] = await Promise.all([urlsOf(EMAILS.gia), urlsOf(EMAILS.ada)]);
      assert.ok(gx.citations.length > 0 && nw.citations.length > 0);
      assert.ok(gx.citations.every((c) => gxUrls.has(c.url)), 'Globex answers cite Globex documents only');
      assert.ok(nw.citations.every((c) => nwUrls.has(c.url)), 'Northwind answers cite Northwind documents only');
    });
  });
}
