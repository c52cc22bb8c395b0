// Writing documents: chunking by heading, replace and delete, batches, the demo corpus, and the
// retrieval query's use of the full-text index — on both dialects.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ZodError } from 'zod';
import {
  chunkMarkdown,
  deleteDocument,
  demoDocuments,
  documentIndex,
  indexDocument,
  indexDocuments,
  queryTerms,
  seedDemoDocuments,
} from '../../src/search/index.ts';
import fc from 'fast-check';
import { planRetrieval } from '../../src/search/retrieval-plan.ts';
import { stem, stemCounts, wantedStems, wordStems } from '../../src/search/query-terms.ts';
import { RECENT_WINDOW } from '../../src/search/tsvector-index.ts';
import { Migrator } from 'kysely/migration';
import { createOrganization } from '../../src/store/organizations.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { migrations } from '../../src/store/migrations/index.ts';
import { createTestDatabase, dialectsUnderTest, openTestStore, type TestDatabase } from '../support/databases.ts';

const words = (n: number, word = 'lorem') => Array.from({ length: n }, (_, i) => `${word}${i % 50}`).join(' ');
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('chunkMarkdown', () => {
  it('should split long sections into passages of at most 800 words under their heading', () => {
    const body = `# Pricing\n\n${words(700)}.\n\n${words(700)}.\n\n# Security\n\n${words(1500, 'ipsum')}`;
    const chunks = chunkMarkdown(body, 'Guide');
    assert.ok(chunks.length >= 4);
    for (const c of chunks) assert.ok(countWords(c.text) <= 800, `${countWords(c.text)} words`);
    assert.deepEqual([...new Set(chunks.map((c) => c.heading))], ['Pricing', 'Security']);
    assert.deepEqual(chunks.map((c) => c.index), chunks.map((_, i) => i));
  });

  it('should merge small neighbouring sections and keep their headings', () => {
    const chunks = chunkMarkdown('## Terms\n\nNet 30 is standard.\n\n## Discounts\n\nAbove 20% needs the VP.', 'Pricing');
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]!.heading, 'Terms · Discounts');
    assert.match(chunks[0]!.text, /^Net 30 is standard\.\n\n## Discounts\n\nAbove 20% needs the VP\.$/);
  });

  it('should use the title for text before the first heading, and give no chunks for an empty body', () => {
    assert.equal(chunkMarkdown('Just text.', 'Memo')[0]!.heading, 'Memo');
    assert.deepEqual(chunkMarkdown('  \n\n', 'Empty'), []);
  });

  it('should cut a paragraph with no punctuation at word boundaries', () => {
    const chunks = chunkMarkdown(words(2000), 'Wall of text');
    assert.ok(chunks.length >= 3);
    for (const c of chunks) assert.ok(countWords(c.text) <= 800);
    assert.equal(chunks.reduce((n, c) => n + countWords(c.text), 0), 2000);
  });
});

describe('queryTerms', () => {
  it('should keep only words, drop stop words and never pass operators through', () => {
    assert.deepEqual(queryTerms('What is the "discount" AND/OR NEAR(approval)*?'), ['discount', 'near', 'approval']);
    assert.deepEqual(queryTerms('😀 !!! the of'), []);
    assert.ok(queryTerms('word '.repeat(100) + Array.from({ length: 100 }, (_, i) => `w${i}x`).join(' ')).length <= 24);
  });
});

describe('wordStems and stemCounts', () => {
  // What a scan must find: every word (NFKC, lower-cased runs of letters and digits) stemmed.
  const reference = (text: string) => [...text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => stem(m[0]));
  const word = fc.stringMatching(/^[A-Za-z0-9]{1,12}$/);
  const text = fc.oneof(
    fc.array(fc.oneof(word, fc.constantFrom('Pricing', 'prices', 'flies', 'FLY', 'Ärger', 'ﬁle', 'naïve', 'x', '42')), { maxLength: 40 }).map((ws) => ws.join(' ')),
    fc.string({ maxLength: 80 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
  );

  it('should find exactly the wanted stems a full scan finds, and count every word', () => {
    fc.assert(
      fc.property(text, fc.array(word, { maxLength: 4 }), fc.nat(), (t, extra, pick) => {
        const all = reference(t);
        // Wanted: some of the text's own stems (so there is something to find) and some others.
        const wanted = wantedStems([...all.filter((_, i) => (i + pick) % 3 === 0), ...extra.map(stem)]);
        const expected = all.filter((s) => wanted.stems.has(s));
        assert.deepEqual([...wordStems(t, wanted)].sort(), [...new Set(expected)].sort());
        const { counts, length } = stemCounts(t, wanted);
        assert.equal(length, all.length);
        assert.deepEqual(Object.fromEntries([...counts].sort()), Object.fromEntries([...new Set(expected)].sort().map((s) => [s, expected.filter((e) => e === s).length])));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('planRetrieval', () => {
  const t = (word: string, weight: number, known = true) => ({ words: [word], weight, known });
  it('should ask for the minimal sets of words that reach half of the weight', () => {
    // a=4 alone reaches half of 8; b+c=3 does not, b+c+d does.
    assert.deepEqual(planRetrieval([t('a', 4), t('b', 1.5), t('c', 1.5), t('d', 1)], 0.5), [[['a']], [['b'], ['c'], ['d']]]);
    assert.deepEqual(planRetrieval([t('a', 1), t('b', 1), t('c', 1)], 0.5), [[['a'], ['b']], [['a'], ['c']], [['b'], ['c']]]);
  });
  it('should give up when the words the documents contain can never reach half', () => {
    assert.equal(planRetrieval([t('dress', 5, false), t('code', 4)], 0.5), null);
    assert.deepEqual(planRetrieval([t('beat', 3, false), t('callwise', 3)], 0.5), [[['callwise']]]);
  });
  it('should fall back to any of the words when the combinations are too many', () => {
    const many = Array.from({ length: 14 }, (_, i) => t(`w${i}`, 1));
    assert.deepEqual(planRetrieval(many, 0.5), many.map((m) => [m.words]));
  });
});

for (const dialect of dialectsUnderTest()) {
  describe(`document index (${dialect})`, () => {
    let store: Store;
    let database: TestDatabase;
    let cleanup: () => Promise<void>;
    let orgId: string;
    const doc = (id: string, body: string, extra: Record<string, unknown> = {}) => ({
      id,
      orgId,
      title: `Doc ${id}`,
      source: 'upload' as const,
      url: `https://docs.example/${id}`,
      lastModified: 1_700_000_000_000,
      visibility: 'org' as const,
      body,
      ...extra,
    });
    const search = (terms: string[]) => documentIndex(store).search({ orgId, teamIds: [] }, terms.map((t) => [[t]]), 10);
    const passagesOf = async (org: string) =>
      Number((await store.db.selectFrom('document_chunks').select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', org).executeTakeFirstOrThrow()).n);
    /**
     * Documents indexed into a fresh database whose schema stops at `migration`, then the rest of
     * the migrations applied: what an upgrade finds. `check` looks at the upgraded store.
     */
    const indexedBefore = async (migration: string, documents: ReturnType<typeof doc>[], check: (upgraded: Store, org: string) => Promise<void>) => {
      const database = await createTestDatabase(dialect);
      const old = openStore(database.config);
      try {
        const migrator = new Migrator({ db: old.db, provider: { getMigrations: async () => migrations } });
        assert.equal((await migrator.migrateTo(migration)).error, undefined);
        const org = (await createOrganization(old.db, { name: 'Earlier Co', domains: ['earlier.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } })).id;
        await indexDocuments(old, documents.map((d) => ({ ...d, orgId: org })));
        await migrateToLatest(old);
        await check(old, org);
      } finally {
        await old.close();
        await database.drop();
      }
    };

    before(async () => {
      ({ store, database, cleanup } = await openTestStore(dialect));
      orgId = (await createOrganization(store.db, { name: 'Index Co', domains: ['index.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } })).id;
      // The oldest passages of the organization, for the last tests: thousands are indexed after them.
      await indexDocuments(store, [
        doc('grebe-guide', 'Crested and little grebes dive for fish.', { title: 'Grebe Field Guide' }),
        doc('plover-guide', 'Ringed plovers run along the tideline.', { title: 'Plover Field Guide' }),
        ...Array.from({ length: 6 }, (_, i) => doc(`avocet-guide${i}`, `Avocets sweep the shallows, part ${i}.`, { title: `Avocet Field Guide, part ${i}` })),
      ]);
    });
    after(() => cleanup());

    it('should replace a document when it is indexed again with the same id', async () => {
      await indexDocument(store, doc('r1', '# Old\n\nThe pelican policy.'));
      assert.equal((await search(['pelican'])).length, 1);
      await indexDocument(store, doc('r1', '# New\n\nThe flamingo policy.'));
      assert.equal((await search(['pelican'])).length, 0);
      const hits = await search(['flamingo']);
      assert.deepEqual(hits.map((h) => [h.documentId, h.heading]), [['r1', 'New']]);
    });

    it('should remove a deleted document from the index', async () => {
      await indexDocument(store, doc('del1', 'The cormorant clause.'));
      assert.equal((await search(['cormorant'])).length, 1);
      assert.equal(await deleteDocument(store, orgId, 'del1'), true);
      assert.equal((await search(['cormorant'])).length, 0);
      assert.equal(await deleteDocument(store, orgId, 'del1'), false);
    });

    it('should write many documents in batches, one transaction each', async () => {
      const batches: number[] = [];
      const body = (i: number) => `# Part A\n\nOstrich ${i}.\n\n# Part B\n\n${words(900)}`;
      const perDocument = chunkMarkdown(body(0), 'x').length;
      assert.ok(perDocument >= 2);
      const result = await indexDocuments(
        store,
        Array.from({ length: 600 }, (_, i) => doc(`bulk${i}`, body(i))),
        { onBatch: (done) => batches.push(done.documents) },
      );
      assert.deepEqual(batches, [250, 500, 600]);
      assert.equal(result.documents, 600);
      assert.equal(result.chunks, 600 * perDocument);
      assert.equal((await documentIndex(store).search({ orgId, teamIds: [] }, [[['ostrich']]], 1000)).length, 600);
    });

    it('should still find a visible passage behind hundreds of newer invisible ones', async () => {
      // 600 passages of another team, matching better and indexed later, come first in the index's
      // order; the one visible passage must come back anyway (the scan passes over invisible ones).
      await indexDocuments(store, [doc('lonely', `# Notes\n\n${words(300)} and one kestrel.`)]);
      await indexDocuments(store, Array.from({ length: 600 }, (_, i) => doc(`crowd${i}`, `# Kestrel kestrel\n\nKestrel kestrel kestrel ${i}.`, { visibility: 'team', teamId: 'team_other' })));
      const hits = await documentIndex(store).search({ orgId, teamIds: ['team_mine'] }, [[['kestrel']]], 10);
      assert.deepEqual(hits.map((h) => h.documentId), ['lonely']);
      // Told the word is common, PostgreSQL reads the newest passages first: all of them another
      // team's, so it finds none it may show, and the full query still finds the visible one.
      const common = await documentIndex(store).search({ orgId, teamIds: ['team_mine'] }, [[['kestrel']]], 10, { common: true });
      assert.deepEqual(common.map((h) => h.documentId), ['lonely']);
    });

    it('should take the newest title/heading matches the caller may see when told the words are common', async () => {
      const other = (await createOrganization(store.db, { name: 'Other Bittern Co', domains: ['bittern-other.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } })).id;
      const bittern = (id: string, extra: Record<string, unknown> = {}) => doc(id, `# Bittern notes\n\nThe bittern ${id} nests by the reeds.`, extra);
      // The oldest has both words in its heading: the full query offers it first.
      await indexDocuments(store, [doc('bittern-classic', '# Bittern nests\n\nWhere the bittern nests, and when.')]);
      await indexDocuments(store, Array.from({ length: 40 }, (_, i) => bittern(`bittern-seen${i}`)));
      // Newer ones the caller may not see: another team's, another source's, another organization's.
      await indexDocuments(store, Array.from({ length: 15 }, (_, i) => bittern(`bittern-team${i}`, { visibility: 'team', teamId: 'team_other' })));
      await indexDocuments(store, Array.from({ length: 15 }, (_, i) => bittern(`bittern-drive${i}`, { source: 'google_drive' })));
      await indexDocuments(store, Array.from({ length: 15 }, (_, i) => ({ ...bittern(`bittern-org${i}`), orgId: other })));
      const scope = { orgId, teamIds: ['team_mine'], sources: ['upload' as const] };
      const query = [[['bittern'], ['nests']]];
      const recent = await documentIndex(store).search(scope, query, 12, { common: true });
      assert.equal(recent.length, 12);
      for (const h of recent) assert.match(h.documentId, /^bittern-seen\d+$/, 'the newest passages the caller may see, title/heading matches only');
      const full = await documentIndex(store).search(scope, query, 12);
      assert.equal(full.length, 12);
      if (dialect === 'postgres') {
        // Without the hint every match is ordered by how many words its heading holds.
        assert.equal(full[0]?.documentId, 'bittern-classic');
        for (const h of full.slice(1)) assert.match(h.documentId, /^bittern-seen\d+$/);
      } else {
        // FTS5 takes the newest title/heading matches either way.
        assert.deepEqual(full.map((h) => h.documentId), recent.map((h) => h.documentId));
      }
      // Named documents skip the recent-first path: the older one named is found.
      const named = await documentIndex(store).search({ ...scope, documentIds: ['bittern-classic', 'bittern-seen1'] }, query, 12, { common: true });
      assert.deepEqual(named.map((h) => h.documentId).sort(), ['bittern-classic', 'bittern-seen1']);
      if (dialect === 'postgres') {
        const plan = (await documentIndex(store).explain({ ...scope, documentIds: ['bittern-classic'] }, query, 12, { common: true })).join('\n');
        assert.doesNotMatch(plan, /document_chunks_recency/, 'named documents take the full query');
      }
    });

    it('should offer a passage with a question word in its title before newer passages that only mention it', async () => {
      await indexDocuments(store, [doc('egret-guide', 'White plumage, a slow wingbeat and a harsh call mark the egret.', { title: 'Egret Field Guide' })]);
      await indexDocuments(store, Array.from({ length: 60 }, (_, i) => doc(`lake-note${i}`, `Saw an egret by the lake, note ${i}.`)));
      const hits = await documentIndex(store).search({ orgId, teamIds: [] }, [[['egret']]], 10);
      assert.equal(hits.length, 10);
      assert.equal(hits[0]?.documentId, 'egret-guide');
      // The rest are the most recently indexed of the 60 notes, each once.
      assert.equal(new Set(hits.slice(1).map((h) => h.documentId)).size, 9);
      for (const h of hits.slice(1)) assert.match(h.documentId, /^lake-note\d+$/);
      // Told the word is common: one title match among the newest passages is too few, so the
      // title matches of the whole corpus come first (PostgreSQL's second step), the guide first.
      const common = await documentIndex(store).search({ orgId, teamIds: [] }, [[['egret']]], 10, { common: true });
      assert.deepEqual(common.map((h) => h.documentId), hits.map((h) => h.documentId));
      // Any string is a word to the index, even one the database cannot store (NUL).
      assert.equal((await documentIndex(store).search({ orgId, teamIds: [] }, [[['egr\0et']]], 5, { headWords: ['eg\0ret', '"\0'] })).length, 5);
    });

    it('should keep the document totals equal to a count of the documents through replace, delete, update and an organization removed', async () => {
      const other = (await createOrganization(store.db, { name: 'Totals Co', domains: ['totals.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } })).id;
      const multi = (n: number) => Array.from({ length: n }, (_, i) => `# Part ${i}\n\n${words(30, `part${i}w`)}`).join('\n\n');
      await indexDocuments(store, [
        doc('t1', multi(3)),
        doc('t2', multi(1), { source: 'highspot' }),
        doc('t3', multi(2), { visibility: 'team', teamId: 'team_red' }),
        { ...doc('t4', multi(4)), orgId: other },
      ]);
      await indexDocuments(store, [doc('t1', multi(5), { visibility: 'team', teamId: 'team_blue', source: 'onedrive' })]); // replaced
      assert.equal(await deleteDocument(store, orgId, 't2'), true);
      await store.db.updateTable('documents').set({ visibility: 'org', team_id: null }).where('org_id', '=', orgId).where('id', '=', 't3').execute();
      const totals = async () => {
        const kept = await store.db.selectFrom('document_totals').select(['org_id', 'visibility', 'team_id', 'source', 'documents', 'chunks']).where('documents', '>', 0).execute();
        const counted = await store.db
          .selectFrom('documents')
          .select((eb) => ['org_id', 'visibility', 'team_id', 'source', eb.fn.countAll<number>().as('documents'), eb.fn.sum<number>('chunk_count').as('chunks')])
          .groupBy(['org_id', 'visibility', 'team_id', 'source'])
          .execute();
        const key = (r: { org_id: string; visibility: string; team_id: string | null; source: string }) => `${r.org_id}/${r.visibility}/${r.team_id ?? ''}/${r.source}`;
        return {
          kept: Object.fromEntries(kept.map((r) => [key(r), [Number(r.documents), Number(r.chunks)]]).sort()),
          counted: Object.fromEntries(counted.map((r) => [key(r), [Number(r.documents), Number(r.chunks)]]).sort()),
        };
      };
      let t = await totals();
      assert.deepEqual(t.kept, t.counted);
      assert.equal(t.kept[`${orgId}/team/team_blue/onedrive`]?.[0], 1);
      assert.equal(t.kept[`${orgId}/org//highspot`], undefined);
      assert.equal(t.kept[`${orgId}/team/team_red/upload`], undefined);
      assert.equal(t.kept[`${other}/org//upload`]?.[0], 1);
      await store.db.deleteFrom('organizations').where('id', '=', other).execute();
      t = await totals();
      assert.deepEqual(t.kept, t.counted);
      assert.equal(Object.keys(t.kept).some((k) => k.startsWith(other)), false);
    });

    it('should index imports into one organization at once, each document counted once', async () => {
      // Their triggers update the organization's totals rows (one per visibility, team and source)
      // in the order of their documents: here different orders, in many small batches at once.
      // Without the per-organization lock one round deadlocked in about 3 of 5 runs: three rounds.
      // On PostgreSQL each import has a store of its own, as separate processes would: within one
      // process imports share the maintenance connection and take turns anyway. (On SQLite, where a
      // second connection in this process would wait synchronously for the first, one store: the
      // counts are checked, the lock is PostgreSQL's.)
      const own = dialect === 'postgres' ? [openStore(database.config), openStore(database.config), openStore(database.config)] : [];
      const importers = own.length ? own : [store, store, store];
      const kinds = [{}, { visibility: 'team', teamId: 'team_a' }, { source: 'google_drive' }, { visibility: 'team', teamId: 'team_b', source: 'onedrive' }];
      try {
        for (let round = 0; round < 3; round++) {
          const org = (await createOrganization(store.db, { name: `Busy Co ${round}`, domains: [`busy${round}.example`], license: { plan: 'paid', trialEndsAt: null, seats: 5 } })).id;
          const batch = (tag: string, order: number[]) =>
            Array.from({ length: 120 }, (_, i) => ({ ...doc(`${tag}${i}`, `# Part\n\nBusy import ${tag} ${i}.`, kinds[order[i % order.length]!]), orgId: org }));
          const imports = await Promise.allSettled([
            indexDocuments(importers[0]!, batch('east', [0, 1, 2, 3]), { batchSize: 8 }),
            indexDocuments(importers[1]!, batch('west', [3, 2, 1, 0]), { batchSize: 8 }),
            indexDocuments(importers[2]!, batch('north', [2, 0, 3, 1]), { batchSize: 8 }),
          ]);
          assert.deepEqual(imports.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status)), ['fulfilled', 'fulfilled', 'fulfilled'], `round ${round}`);
          const counted = await store.db.selectFrom('document_totals').select((eb) => eb.fn.sum<number>('documents').as('n')).where('org_id', '=', org).executeTakeFirstOrThrow();
          assert.equal(Number(counted.n), 360);
        }
      } finally {
        await Promise.all(own.map((s) => s.close()));
      }
    });

    it('should count documents indexed before the totals existed (the migration fills them)', async () => {
      await indexedBefore('0005-documents', [doc('b1', '# A\n\nOne.\n\n# B\n\nTwo.'), doc('b2', 'Three.', { visibility: 'team', teamId: 'team_x' })], async (upgraded, org) => {
        const rows = await upgraded.db.selectFrom('document_totals').select(['visibility', 'team_id', 'documents']).where('org_id', '=', org).orderBy('visibility').execute();
        assert.deepEqual(rows.map((r) => [r.visibility, r.team_id, Number(r.documents)]), [['org', '', 1], ['team', 'team_x', 1]]);
      });
    });

    it('should search passages indexed before they carried their document’s columns (the migration fills them)', async () => {
      const lynx = [doc('e1', '# Lynx\n\nThe lynx policy applies to everyone.'), doc('e2', '# Lynx\n\nThe lynx bonus is for the team.', { visibility: 'team', teamId: 'team_x', source: 'highspot' })];
      await indexedBefore('0006-document-totals', lynx, async (upgraded, org) => {
        const found = async (teamIds: string[], sources?: ('upload' | 'highspot')[]) =>
          (await documentIndex(upgraded).search({ orgId: org, teamIds, ...(sources ? { sources } : {}) }, [[['lynx']]], 10)).map((h) => h.documentId).sort();
        assert.deepEqual(await found([]), ['e1']);
        assert.deepEqual(await found(['team_x']), ['e1', 'e2']);
        assert.deepEqual(await found(['team_x'], ['highspot']), ['e2']);
      });
    });

    // SQLite has one writer and no such lock: a PostgreSQL case only.
    if (dialect === 'postgres') it('should let an import wait for another import of its organization longer than a request query may take', async () => {
      // The other import's batch is simulated by holding the organization's lock for 10.5 s: past
      // the request pool's 10 s query timeout, which used to cut the waiting batch off.
      const org = (await createOrganization(store.db, { name: 'Patient Co', domains: ['patient.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } })).id;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = store.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`documents:${org}`}, 0))`.execute(trx);
        locked();
        await held;
      });
      await lockTaken;
      const waiting = indexDocuments(store, [{ ...doc('patient1', '# Wait\n\nA patient import.'), orgId: org }]);
      const outcome = Promise.allSettled([waiting]);
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      release();
      await holder;
      const [result] = await outcome;
      assert.equal(result!.status, 'fulfilled', result!.status === 'rejected' ? String(result!.reason) : '');
      assert.equal(await passagesOf(org), 1);
    });

    // FTS5 keeps no planner statistics: a PostgreSQL case only (it would pass vacuously on SQLite).
    if (dialect === 'postgres') it('should leave an upgraded database with planner statistics for the passages’ new columns and title/heading index', async () => {
      const notes = Array.from({ length: 30 }, (_, i) => doc(`stat${i}`, `# Heading ${i}\n\nThe stork policy, part ${i}.`));
      await indexedBefore('0009-passage-head-index', notes, async (upgraded) => {
        const stats = await sql<{ tablename: string; attname: string }>`select tablename, attname from pg_stats where tablename in ('document_chunks', 'document_chunks_head_gin')`.execute(upgraded.db);
        const names = stats.rows.map((r) => `${r.tablename}.${r.attname}`);
        assert.ok(names.includes('document_chunks.doc_updated_at'), `copied columns analyzed: ${names.join(', ')}`);
        assert.ok(names.some((n) => n.startsWith('document_chunks_head_gin.')), `the title/heading expression analyzed: ${names.join(', ')}`);
      });
    });

    it('should report a failed batch as a rejection, keeping the batches written before it', async () => {
      const docs = [
        ...Array.from({ length: 250 }, (_, i) => doc(`good${i}`, 'Puffin.')),
        ...Array.from({ length: 5 }, (_, i) => ({ ...doc(`orphan${i}`, 'Puffin.'), orgId: 'org_does_not_exist' })),
      ];
      await assert.rejects(indexDocuments(store, docs));
      assert.equal((await documentIndex(store).search({ orgId, teamIds: [] }, [[['puffin']]], 1000)).length, 250);
    });

    it('should refuse a team-visible document without a team, and write nothing of that batch', async () => {
      await assert.rejects(indexDocuments(store, [doc('ok1', 'Heron.'), doc('bad1', 'Heron.', { visibility: 'team' })]), ZodError);
      assert.equal((await search(['heron'])).length, 0);
    });

    it('should seed the demo documents deterministically, some visible to one team only', async () => {
      const teams = [{ id: 'team_a', name: 'Alpha' }, { id: 'team_b', name: 'Beta' }];
      const first = [...demoDocuments(orgId, teams, { now: 1_800_000_000_000 })];
      const second = [...demoDocuments(orgId, teams, { now: 1_800_000_000_000 })];
      assert.deepEqual(first, second);
      assert.equal(first.length, 150);
      assert.equal(new Set(first.map((d) => d.id)).size, 150);
      assert.equal(new Set(first.map((d) => d.title)).size, 150);
      assert.ok(first.filter((d) => d.visibility === 'team').length >= 6);
      const seeded = await seedDemoDocuments(store, orgId, teams, { now: 1_800_000_000_000 });
      const again = await seedDemoDocuments(store, orgId, teams, { now: 1_800_000_000_000 });
      assert.deepEqual(again, seeded);
      assert.equal(seeded.documents, 150);
      const more = [...demoDocuments(orgId, teams, { count: 1000 })];
      assert.equal(new Set(more.map((d) => d.id)).size, 1000);
    });

    it('should answer the retrieval query from the full-text index', async () => {
      // 2,000 more passages, each with its own rare word, so the planner has a reason to prefer the index.
      await indexDocuments(store, Array.from({ length: 2000 }, (_, i) => doc(`plan${i}`, `Rare word zq${i}x and some common filler text.`)));
      if (dialect === 'postgres') {
        await sql`vacuum analyze document_chunks`.execute(store.db);
        await sql`analyze documents`.execute(store.db);
      }
      const plan = (await documentIndex(store).explain({ orgId, teamIds: ['team_a'] }, [[['zq1234x']]], 30)).join('\n');
      if (dialect === 'postgres') {
        // Told the words are common, the organization's passages (more than the window, so the
        // planner has a reason to stream them) are read along the recency index, newest first,
        // and no sort stands between that scan and the limit: it stops at the 30th match.
        assert.ok((await passagesOf(orgId)) > RECENT_WINDOW, 'more passages than the window');
        const recent = (await documentIndex(store).explain({ orgId, teamIds: ['team_a'] }, [[['zq1234x'], ['common']]], 30, { common: true })).join('\n');
        assert.match(recent, /Index Scan using document_chunks_recency on document_chunks/);
        assert.doesNotMatch(recent, /Bitmap Heap Scan on document_chunks/);
        assert.doesNotMatch(recent, /Sort Key: c\./, `no sort over the passages read:\n${recent}`);
      }
      if (dialect === 'sqlite') {
        // FTS5 answers MATCH from its index ("VIRTUAL TABLE INDEX …M…") and drives the joins: each
        // match is looked up by rowid and primary key, never a scan of the organization's chunks.
        // FTS5 also delivers the newest-first order, so nothing is sorted and the scan stops at the
        // limit instead of visiting every match.
        assert.match(plan, /SCAN f VIRTUAL TABLE INDEX \d+:\w*M/);
        assert.doesNotMatch(plan, /TEMP B-TREE/);
        assert.match(plan, /SEARCH c USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        assert.match(plan, /SEARCH d USING INDEX \w+ \(org_id=\? AND id=\?\)/);
      } else {
        assert.match(plan, /Bitmap Index Scan on document_chunks_tsv_gin/);
      }
    });

    it('should still offer an old passage with a question word in its title first when told the words are common', async () => {
      // The guide is older than the RECENT_WINDOW newest passages; the newest notes only mention the word.
      assert.ok((await passagesOf(orgId)) > RECENT_WINDOW + 40, 'the guide is outside the newest passages');
      await indexDocuments(store, Array.from({ length: 40 }, (_, i) => doc(`pond-note${i}`, `Saw a grebe on the pond, note ${i}.`)));
      const scope = { orgId, teamIds: [] };
      const full = await documentIndex(store).search(scope, [[['grebe']]], 10);
      const common = await documentIndex(store).search(scope, [[['grebe']]], 10, { common: true });
      assert.equal(full[0]?.documentId, 'grebe-guide');
      assert.deepEqual(common.map((h) => h.documentId), full.map((h) => h.documentId));
      for (const h of common.slice(1)) assert.match(h.documentId, /^pond-note\d+$/);
    });

    it('should fill the page with old title/heading matches when the corpus holds enough, told the words are common', async () => {
      // Six guides with the word in their title, all older than the window; the newest passages only mention it.
      await indexDocuments(store, Array.from({ length: 30 }, (_, i) => doc(`shore-note${i}`, `An avocet on the shore, note ${i}.`)));
      const scope = { orgId, teamIds: [] };
      const full = await documentIndex(store).search(scope, [[['avocet']]], 5);
      const common = await documentIndex(store).search(scope, [[['avocet']]], 5, { common: true });
      assert.equal(common.length, 5);
      for (const h of common) assert.match(h.documentId, /^avocet-guide\d$/, 'title matches before newer passages that only mention the word');
      assert.deepEqual(common.map((h) => h.documentId), full.map((h) => h.documentId));
    });

    it('should offer each passage once when a title/heading match is also among the newest passages', async () => {
      // A new atlas with the word in its title is both a title/heading match and one of the newest
      // matches (PostgreSQL's second step finds it in both of its lists); the old guide is the other title match.
      await indexDocuments(store, Array.from({ length: 20 }, (_, i) => doc(`dune-note${i}`, `A plover on the dunes, note ${i}.`)));
      await indexDocuments(store, [doc('plover-atlas', 'Where plovers nest, coast by coast.', { title: 'Plover Atlas' })]);
      const scope = { orgId, teamIds: [] };
      const full = await documentIndex(store).search(scope, [[['plover']]], 10);
      const common = await documentIndex(store).search(scope, [[['plover']]], 10, { common: true });
      assert.equal(common.length, 10);
      assert.equal(new Set(common.map((h) => `${h.documentId}:${h.chunkIndex}`)).size, 10, 'each passage once');
      assert.deepEqual(common.slice(0, 2).map((h) => h.documentId), ['plover-atlas', 'plover-guide']);
      for (const h of common.slice(2)) assert.match(h.documentId, /^dune-note\d+$/);
      assert.deepEqual(common.map((h) => h.documentId), full.map((h) => h.documentId));
      // Any string is a word to the index, on the recent-first path too (NUL, which PostgreSQL cannot store).
      assert.equal((await documentIndex(store).search(scope, [[['plo\0ver']]], 5, { headWords: ['plo\0ver', '"\0'], common: true })).length, 5);
    });
  });
}
