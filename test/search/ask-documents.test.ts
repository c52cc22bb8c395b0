// ask_documents behaviour on both dialects: visibility, citations, size bounds, hostile input.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { askDocuments, AskDocumentsInput, AskDocumentsOutput, NOT_FOUND, renderAskDocuments } from '../../src/search/index.ts';
import { dialectsUnderTest } from '../support/databases.ts';
import { NOW, openSearchFixture, type SearchFixture } from './fixture.ts';
import { deleteDocument, indexDocument } from '../../src/search/documents.ts';
import { sql } from 'kysely';

const ask = (f: SearchFixture, principal: ReturnType<SearchFixture['member']>, input: Record<string, unknown>) =>
  askDocuments(f.store, principal, AskDocumentsInput.parse(input));

const HOSTILE = [
  'discount" OR 1=1 --',
  'NEAR(pricing discount, 2) AND NOT security',
  'price* ^title:secret {heading body}: "unterminated',
  "'; drop table documents; --",
  '!!! ??? ... ***',
  'the of and to a in',
  '😀🔥🚀 pricing 💸',
  'Ÿ̶̢̛o̴͇͝ Zalgo t̷e̶x̸t discount',
  '价格 折扣 审批',
  'ملخص التسعير',
  'a\u0000b\u202eprice\uFEFF',
  '-price | !discount & (approval) <-> security:*',
  'discount '.repeat(440),
  `${'x'.repeat(3990)}`,
];

for (const dialect of dialectsUnderTest()) {
  describe(`ask_documents (${dialect})`, () => {
    let f: SearchFixture;
    before(async () => {
      f = await openSearchFixture(dialect);
    });
    after(() => f.cleanup());

    it('should find a team-only document for a member of that team', async () => {
      const team = f.northwind.teams[0]!;
      const out = await ask(f, f.member([team.id]), { question: 'What accelerator applies above 100 percent of quota?' });
      assert.equal(out.grounded, true);
      assert.ok(out.citations.some((c) => c.title === `${team.name} Compensation Plan and Accelerators`), JSON.stringify(out.citations.map((c) => c.title)));
    });

    it('should never retrieve a team-only document for users outside the team or in another organization', async () => {
      const team = f.northwind.teams[0]!;
      const teamDocs = await f.store.db.selectFrom('documents').select('id').where('org_id', '=', f.northwind.orgId).where('team_id', '=', team.id).execute();
      assert.ok(teamDocs.length > 0);
      const hidden = new Set(teamDocs.map((d) => d.id));
      const outsiders = [f.member([]), f.member([f.northwind.teams[1]!.id]), f.member([team.id], 'globex'), f.member([f.globex.teams[0]!.id], 'globex')];
      const questions = ['Project Aurora accelerator', `${team.name} compensation plan accelerators`, `${team.name} territory plan`, 'commission SPIFF accelerator quota'];
      for (const principal of outsiders) {
        for (const question of questions) {
          for (const mode of ['answer', 'passages']) {
            const out = await ask(f, principal, { question, mode, top_k: 10 });
            for (const c of out.citations) assert.ok(!hidden.has(c.document_id), `${principal.orgId} saw ${c.title}`);
          }
        }
        // Naming the hidden documents explicitly does not help either.
        const out = await ask(f, principal, { question: 'accelerator', document_ids: [...hidden] });
        assert.equal(out.grounded, false);
        assert.equal(out.documents_searched, 0);
      }
    });

    it('should count exactly the documents the caller may see, with and without the sources filter', async () => {
      const [red, blue] = f.northwind.teams;
      const callers = [f.member([]), f.member([red!.id]), f.member([red!.id, blue!.id]), f.member([], 'globex'), f.member([f.globex.teams[0]!.id], 'globex')];
      for (const principal of callers) {
        for (const sources of [undefined, ['highspot'], ['google_drive', 'upload']] as const) {
          const visible = await f.store.db
            .selectFrom('documents')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('org_id', '=', principal.orgId)
            .where((eb) => eb.or([eb('visibility', '=', 'org'), eb.and([eb('visibility', '=', 'team'), eb('team_id', 'in', [...principal.teamIds, '-'])])]))
            .$if(sources !== undefined, (q) => q.where('source', 'in', [...(sources ?? [])]))
            .executeTakeFirstOrThrow();
          const out = await ask(f, principal, { question: 'discount approval', ...(sources ? { sources: [...sources] } : {}) });
          assert.equal(out.documents_searched, Number(visible.n), `${principal.orgId} teams ${principal.teamIds.length} sources ${sources?.join(',') ?? 'all'}`);
        }
      }
    });

    it('should only ever cite documents of the caller’s own organization', async () => {
      const globexIds = new Set((await f.store.db.selectFrom('documents').select('id').where('org_id', '=', f.globex.orgId).execute()).map((d) => d.id));
      for (const question of ['discount approval', 'SOC 2 report', 'How do we win against Callwise?']) {
        const nw = await ask(f, f.member(), { question, top_k: 10 });
        assert.ok(nw.citations.length > 0);
        for (const c of nw.citations) assert.ok(!globexIds.has(c.document_id));
        const gx = await ask(f, f.member([], 'globex'), { question, top_k: 10 });
        for (const c of gx.citations) assert.ok(globexIds.has(c.document_id));
      }
    });

    it('should say not found, with no citations, when nothing matches', async () => {
      const out = await ask(f, f.member(), { question: 'zebra migration patterns in the Serengeti' });
      assert.equal(out.grounded, false);
      assert.deepEqual(out.citations, []);
      assert.ok(out.answer_md.startsWith(NOT_FOUND));
      assert.ok(out.documents_searched > 100);
    });

    it('should see a document added or removed after an earlier question at once (reused word counts follow the index)', async () => {
      const question = { question: 'What does the quokka escalation checklist require?' };
      const before = await ask(f, f.member(), question);
      assert.equal(before.grounded, false);
      assert.match(before.answer_md, /No visible document mentions: [^.]*quokka/);
      const { id } = await indexDocument(f.store, {
        orgId: f.northwind.orgId,
        title: 'Quokka escalation checklist',
        source: 'upload',
        url: 'https://docs.example.com/quokka-escalation',
        lastModified: NOW,
        visibility: 'org',
        body: '# Quokka escalation checklist\n\nThe quokka escalation checklist requires a named executive sponsor and a written recovery plan within two days.',
      });
      try {
        const added = await ask(f, f.member(), question);
        assert.equal(added.grounded, true, added.answer_md);
        assert.ok(added.citations.some((c) => c.document_id === id));
      } finally {
        await deleteDocument(f.store, f.northwind.orgId, id);
      }
      const removed = await ask(f, f.member(), question);
      assert.equal(removed.grounded, false);
      assert.ok(removed.citations.every((c) => c.document_id !== id));
    });

    it('should follow a document whose visibility, team or source is changed in place', async () => {
      const team = f.northwind.teams[0]!;
      const other = f.northwind.teams[1]!;
      const { id } = await indexDocument(f.store, {
        orgId: f.northwind.orgId,
        title: 'Platypus renewal playbook',
        source: 'upload',
        url: 'https://docs.example.com/platypus-renewal',
        lastModified: NOW,
        visibility: 'org',
        body: '# Platypus renewal playbook\n\nEvery platypus renewal starts ninety days before the contract ends.',
      });
      const question = { question: 'When does a platypus renewal start?' };
      const finds = async (principal: ReturnType<SearchFixture['member']>, extra: Record<string, unknown> = {}) =>
        (await ask(f, principal, { ...question, ...extra })).citations.some((c) => c.document_id === id);
      // On PostgreSQL each passage carries copies of its document's columns (migration 0007); the
      // search's outer check on the document would hide a stale copy that shows too much, so the
      // copies are compared with the document directly after every change.
      const copiesFollow = async (label: string) => {
        if (dialect !== 'postgres') return;
        const { rows } = await sql<Record<string, unknown>>`
          select d.visibility = c.doc_visibility and d.team_id is not distinct from c.doc_team_id and d.source = c.doc_source
            and d.updated_at = c.doc_updated_at and c.head = lower(c.heading || ' ' || d.title) as same
          from document_chunks c join documents d on d.org_id = c.org_id and d.id = c.document_id
          where c.org_id = ${f.northwind.orgId} and c.document_id = ${id}`.execute(f.store.db);
        assert.ok(rows.length > 0 && rows.every((r) => r.same === true), `passages' copies follow the document: ${label}`);
      };
      const change = async (values: { visibility?: 'org' | 'team'; team_id?: string | null; source?: 'upload' | 'highspot'; title?: string; updated_at?: number }) => {
        await f.store.db.updateTable('documents').set(values).where('org_id', '=', f.northwind.orgId).where('id', '=', id).execute();
        await copiesFollow(JSON.stringify(values));
      };
      try {
        await copiesFollow('as indexed');
        assert.equal(await finds(f.member([])), true);
        await change({ visibility: 'team', team_id: team.id });
        assert.equal(await finds(f.member([])), false, 'team-only now: hidden from a member of no team');
        assert.equal(await finds(f.member([other.id])), false, 'hidden from another team');
        assert.equal(await finds(f.member([team.id])), true, 'found by its team');
        await change({ team_id: other.id });
        assert.equal(await finds(f.member([team.id])), false, 'moved to the other team');
        assert.equal(await finds(f.member([other.id])), true);
        await change({ visibility: 'org', team_id: null, source: 'highspot' });
        assert.equal(await finds(f.member([])), true, 'org-visible again');
        assert.equal(await finds(f.member([]), { sources: ['upload'] }), false, 'no longer an upload');
        assert.equal(await finds(f.member([]), { sources: ['highspot'] }), true);
        await change({ title: 'Platypus and echidna renewal playbook', updated_at: NOW + 1000 });
        if (dialect === 'postgres') {
          // SQLite's FTS5 copy of the title is written when the passage is indexed (not followed).
          assert.equal(await finds(f.member([]), { question: 'echidna renewal' }), true, 'found by a word only in its new title');
        }
      } finally {
        await deleteDocument(f.store, f.northwind.orgId, id);
      }
    });

    it('should give a statement the heading of its own section when small sections share a passage', async () => {
      const { id } = await indexDocument(f.store, {
        orgId: f.northwind.orgId,
        title: 'Wombat onboarding notes',
        source: 'upload',
        url: 'https://docs.example.com/wombat-onboarding',
        lastModified: NOW,
        visibility: 'org',
        body: [
          '# Wombat onboarding notes',
          '## Accounts',
          'Every wombat trainee gets a sandbox account on the first day.',
          '## Shadowing',
          'A wombat trainee shadows three discovery calls in the first week.',
          '## Certification',
          'The wombat certification ends with a recorded mock demo.',
        ].join('\n\n'),
      });
      try {
        const out = await ask(f, f.member(), { question: 'How many discovery calls does a wombat trainee shadow?', document_ids: [id] });
        assert.equal(out.grounded, true, out.answer_md);
        const cited = out.citations.find((c) => c.document_id === id);
        assert.ok(cited, JSON.stringify(out.citations));
        assert.equal(cited.heading, 'Shadowing');
        assert.match(cited.passage, /shadows three discovery calls/);
      } finally {
        await deleteDocument(f.store, f.northwind.orgId, id);
      }
    });

    it('should number citations 1..n and cite only sentences that are in the cited passage', async () => {
      const out = await ask(f, f.member(), { question: 'Who approves a discount above 20 percent?', top_k: 5 });
      assert.equal(out.grounded, true);
      assert.deepEqual(out.citations.map((c) => c.n), out.citations.map((_, i) => i + 1));
      const lines = out.answer_md.split('\n').filter((l) => l.trim());
      assert.ok(lines.length > 0);
      for (const line of lines) {
        const m = /^- (.+) \[(\d+)\]$/.exec(line);
        assert.ok(m, `statement without a citation: ${line}`);
        const citation = out.citations[Number(m[2]) - 1];
        assert.ok(citation, `citation [${m[2]}] does not exist`);
        const chunk = await f.store.db
          .selectFrom('document_chunks')
          .select('text')
          .where('org_id', '=', f.northwind.orgId)
          .where('document_id', '=', citation.document_id)
          .where('idx', '=', citation.chunk_index)
          .executeTakeFirstOrThrow();
        assert.ok(chunk.text.includes(m[1]!.replace(/…$/, '')), `"${m[1]}" is not in passage [${m[2]}]`);
        assert.ok(chunk.text.includes(citation.passage.replace(/^…|…$/g, '')), 'the passage is an excerpt of the chunk');
      }
      assert.match(out.answer_md, /regional VP of Sales/);
    });

    it('should return passages in passages mode and restrict to sources and document_ids', async () => {
      const out = await ask(f, f.member(), { question: 'SOC 2 report', mode: 'passages', sources: ['highspot'] });
      assert.equal(out.grounded, true);
      assert.ok(out.citations.every((c) => c.source === 'highspot'));
      const one = out.citations[0]!;
      const only = await ask(f, f.member(), { question: 'SOC 2 report', document_ids: [one.document_id] });
      assert.equal(only.documents_searched, 1);
      assert.ok(only.citations.every((c) => c.document_id === one.document_id));
    });

    it('should stay within the size budget for the widest arguments', async () => {
      // The tool result carries both the structured result and its text rendering.
      const size = (out: Awaited<ReturnType<typeof askDocuments>>) => JSON.stringify(out).length + renderAskDocuments(out).length;
      for (const mode of ['answer', 'passages']) {
        const widest = await ask(f, f.member(f.northwind.teams.map((t) => t.id)), { question: 'Northwind Revenue Cloud plans, pricing and security', mode, top_k: 10, max_chars: 30000 });
        assert.equal(widest.citations.length, 10);
        assert.ok(size(widest) < 80_000, `never above 20,000 tokens (${size(widest)} chars)`);
        AskDocumentsOutput.parse(widest);
        const normal = await ask(f, f.member(), { question: 'pricing discount security coaching forecast', mode, top_k: 10 });
        assert.ok(size(normal) < 32_000, `about 8,000 tokens by default (${size(normal)} chars)`);
        const small = await ask(f, f.member(), { question: 'pricing discount security coaching forecast', mode, top_k: 10, max_chars: 1000 });
        assert.ok(JSON.stringify(small).length < 12_000);
      }
    });

    it('should never throw on hostile or odd questions', async () => {
      for (const question of HOSTILE) {
        for (const mode of ['answer', 'passages']) {
          const out = await ask(f, f.member(), { question, mode });
          AskDocumentsOutput.parse(out);
          assert.ok(out.query_terms.length <= 24);
        }
      }
      // Called directly with a question longer than the schema allows, it still answers.
      const out = await askDocuments(f.store, f.member(), { question: 'discount approval '.repeat(5000), mode: 'answer', top_k: 5, max_chars: 12000 });
      assert.equal(out.grounded, true);
    });

    it('should never throw on random unicode questions (property)', async () => {
      const alphabet = fc.constantFrom('"', "'", '*', ':', '^', '(', ')', '-', '|', '&', '!', '<->', ' OR ', ' AND ', ' NEAR ', ' ', 'price', 'SOC', '😀', 'é', '\u0000', '\\');
      const question = fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }), fc.array(alphabet, { minLength: 1, maxLength: 40 }).map((parts) => parts.join('')));
      await fc.assert(
        fc.asyncProperty(question, fc.constantFrom('answer', 'passages'), async (q, mode) => {
          const parsed = AskDocumentsInput.safeParse({ question: q, mode });
          if (!parsed.success) return; // blank after trimming: a tool error at the boundary
          AskDocumentsOutput.parse(await askDocuments(f.store, f.member(), parsed.data));
        }),
        { numRuns: 150, seed: 20261121 },
      );
    });

    it('should reject malformed arguments at the schema, naming the field', () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'question'],
        [{ question: '   ' }, 'question'],
        [{ question: 'x', top_k: 11 }, 'top_k'],
        [{ question: 'x', mode: 'summary' }, 'mode'],
        [{ question: 'x', sources: ['dropbox'] }, 'sources'],
        [{ question: 'x', org_id: 'org_1' }, ''],
      ];
      for (const [input, field] of cases) {
        const result = AskDocumentsInput.safeParse(input);
        assert.equal(result.success, false, JSON.stringify(input));
        if (field) assert.equal(result.error.issues[0]?.path[0], field);
      }
      assert.deepEqual(AskDocumentsInput.parse({ question: 'x' }), { question: 'x', mode: 'answer', top_k: 5, max_chars: 12000 });
    });
  });
}
