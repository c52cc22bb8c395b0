// A caller's text is found ignoring case beyond ASCII, the same on both databases (like.ts), and
// the trigram index still proposes every meeting such a text matches (text-probe.ts): through the
// tools, on both dialects, and on a PostgreSQL database whose locale folds ASCII only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dialectsUnderTest, createTestDatabase } from '../support/databases.ts';
import { ANCHOR, EMAILS, ok, seededStore, type Seeded } from '../mcp/support.ts';
import { caseKey, casesOf, foldCase } from '../../src/store/sales/like.ts';
import { inCheckedRange, postgresFolds, postgresLower, probeTrigrams, sqliteFolds } from '../../src/store/sales/text-probe.ts';
import { textCandidates } from '../../src/store/sales/meeting-text.ts';
import { migrateToLatest, openStore } from '../../src/store/database.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { findUserByEmail } from '../../src/store/users.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { principalFromAuth } from '../../src/access/principal.ts';
import { listMeetings } from '../../src/store/sales/meetings.ts';

const DAY = 86_400_000;

describe('case keys and the trigrams a probe may ask for', () => {
  it('puts every case of a letter under one key, final sigma with sigma, and keeps ASCII classes to ASCII', () => {
    for (const [a, b] of [['É', 'é'], ['Σ', 'σ'], ['ς', 'σ'], ['Ё', 'ё'], ['Ł', 'ł'], ['ẞ', 'ß'], ['ǅ', 'ǆ'], ['A', 'a']]) assert.equal(caseKey(a!), caseKey(b!), `${a} ${b}`);
    assert.deepEqual(casesOf('σ').sort(), ['Σ', 'ς', 'σ'].sort());
    assert.deepEqual(casesOf('k'), ['k', 'K']);
    // The Kelvin sign lowers to "k" but keeps to itself; "İ" lowers to two characters and does too.
    assert.deepEqual(casesOf('\u212a'), ['\u212a']);
    assert.deepEqual(casesOf('İ'), ['İ']);
    assert.notEqual(caseKey('é'), caseKey('e'));
  });

  it('folds a text in JavaScript as each character by its case key, whatever its neighbours', () => {
    const differ: string[] = [];
    for (let cp = 0; cp < 0x20000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const c = String.fromCodePoint(cp);
      if (foldCase(c) !== caseKey(c) || foldCase(`a${c}`) !== `a${caseKey(c)}`) differ.push(c);
    }
    assert.deepEqual(differ, []);
    for (const text of ['ΟΔΥΣΣΕΑΣ ΟΔΥΣ', 'İstanbul \u212aelvin', 'Σ', 'ΑΣ.']) assert.equal(foldCase(text), Array.from(text, caseKey).join(''), text);
  });

  it('asks only for trigrams whose letters the database folds as the text is compared', () => {
    // SQLite's FTS5 folds final sigma with sigma; PostgreSQL's lower() does not.
    assert.deepEqual(probeTrigrams('ΟΔΥΣΣΕΑΣ', sqliteFolds), ['οδυ', 'σσε', 'εασ']);
    assert.deepEqual(probeTrigrams('Οδυσσεας', sqliteFolds), ['οδυ', 'σσε', 'εασ']);
    assert.deepEqual(probeTrigrams('ΟΔΥΣΣΕΑΣ', postgresFolds({ ascii: true, letters: true, context: true })), ['οδυ']);
    // Under a C locale only ASCII folds: the letters beyond it leave their trigrams out.
    assert.deepEqual(probeTrigrams('MÜLLER', postgresFolds({ ascii: true, letters: true, context: true })), ['mül', 'ler']);
    assert.deepEqual(probeTrigrams('MÜLLER', postgresFolds({ ascii: true, letters: false, context: true })), ['lle', 'ler']);
    assert.deepEqual(probeTrigrams('ÉLO', postgresFolds({ ascii: true, letters: false, context: true })), []);
    // Letters FTS5's tables predate (Georgian Mtavruli) are never asked for; uncased ones always.
    assert.deepEqual(probeTrigrams('ᲐᲑᲒ', sqliteFolds), []);
    assert.deepEqual(probeTrigrams('日本語の会議', sqliteFolds), ['日本語', 'の会議']);
  });
});

/** Every class of cases the probe may rely on: the letters of the checked ranges with more than one case, each case in them (text-probe.ts). */
function checkedClasses(): string[][] {
  const classes = new Map<string, string[]>();
  for (let cp = 0x80; cp < 0x2200; cp++) {
    const c = String.fromCodePoint(cp);
    if (!inCheckedRange(c) || casesOf(c).length < 2 || !casesOf(c).every((x) => x < '\u0080' || inCheckedRange(x))) continue;
    classes.set(caseKey(c), casesOf(c));
  }
  return [...classes.values()];
}

for (const dialect of dialectsUnderTest()) {
  describe(`text beyond ASCII, ignoring case (${dialect})`, () => {
    let s: Seeded;
    let orgId: string;

    before(async () => {
      s = await seededStore(dialect, 60);
      orgId = (await s.principal(EMAILS.ada)).orgId;
    });
    after(() => s.cleanup());

    it("folds every case of each checked letter in the trigram index as the probe's key does", async () => {
      const classes = checkedClasses().filter((cases) => dialect === 'sqlite' || !cases.includes('σ'));
      assert.ok(classes.length > 500, `${classes.length} classes`);
      const wrong: string[] = [];
      if (dialect === 'postgres') {
        // The index's own key function, on each case tripled and on the key tripled.
        const pairs = classes.flatMap((cases) => cases.map((c) => [c.repeat(3), caseKey(c).repeat(3)]));
        const rows = await sql<{ c: string }>`select c from unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) as t(c, k)
          where meeting_text_keys('o', c) <> meeting_text_keys('o', k)`.execute(s.store.db);
        wrong.push(...rows.rows.map((r) => r.c));
      } else {
        // A table with the index's own tokenizer (as migration 0016 declared it), each case tripled, asked for the key tripled.
        const declared = await sql<{ sql: string }>`select sql from sqlite_master where name = 'meeting_text'`.execute(s.store.db);
        const tokenize = /tokenize\s*=\s*'[^']*'/.exec(declared.rows[0]!.sql)![0];
        await sql.raw(`create virtual table temp.fold_check using fts5(body, ${tokenize})`).execute(s.store.db);
        const cases = classes.flat();
        for (let i = 0; i < cases.length; i++) await sql`insert into temp.fold_check (rowid, body) values (${i + 1}, ${cases[i]!.repeat(3)})`.execute(s.store.db);
        for (let i = 0; i < cases.length; i++) {
          const found = await sql<{ rowid: number }>`select rowid from temp.fold_check where fold_check match ${`"${caseKey(cases[i]!).repeat(3)}"`}`.execute(s.store.db);
          if (!found.rows.some((r) => Number(r.rowid) === i + 1)) wrong.push(cases[i]!);
        }
        await sql`drop table temp.fold_check`.execute(s.store.db);
      }
      assert.deepEqual(wrong, []);
      if (dialect === 'postgres') assert.deepEqual(await postgresLower(s.store.db), { ascii: true, letters: true, context: true });
    });

    it('finds meetings, deals, agents and reports by text in other scripts and cases, through the index and the walk', async () => {
      const mia = await s.principal(EMAILS.mia);
      const db = s.store.db;
      const meeting = (id: string, title: string, daysAgo: number) => ({
        org_id: orgId, id, title, start_at: ANCHOR - daysAgo * DAY, end_at: ANCHOR - daysAgo * DAY + 1_800_000, status: 'completed' as const, owner_id: mia.userId, team_id: null, deal_id: null,
        account_id: null, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0,
        transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
      });
      await db.insertInto('meetings').values([meeting('mtg-elodie', 'ÉLODIE DURAND kickoff', 3), meeting('mtg-odysseas', 'Οδυσσέας — ΟΔΥΣΣΕΑΣ ΠΑΠΑΔΟΠΟΥΛΟΣ', 4), meeting('mtg-plain', 'Plain review', 5)]).execute();
      await db.insertInto('participants').values({ org_id: orgId, meeting_id: 'mtg-plain', id: 1, email: 'lukasz@wojcik.example', name: 'ŁUKASZ WÓJCIK', user_id: null, side: 'buyer', company: 'Müller GmbH', title: null, talk_time_ms: 0 }).execute();
      const meetings = async (q: string, email: string) =>
        ok<{ meetings: { meeting_id: string }[] }>('list_meetings', await s.call(email, 'list_meetings', { q, range: 'last_30_days', limit: 25 })).meetings.map((m) => m.meeting_id).sort();
      for (const email of [EMAILS.ada, EMAILS.mia, EMAILS.max]) {
        for (const q of ['élodie', 'Élodie Durand', 'ÉLODIE']) assert.deepEqual(await meetings(q, email), ['mtg-elodie'], `${email}: ${q}`);
        // Final sigma, capital sigma and sigma meet; accents still count.
        for (const q of ['οδυσσεας', 'ΟΔΥΣΣΕΑΣ', 'Οδυσσεας παπαδοπουλος', 'παπαδόπουλος'.normalize('NFC').replace('ό', 'ο')]) assert.deepEqual(await meetings(q, email), ['mtg-odysseas'], `${email}: ${q}`);
        for (const q of ['łukasz', 'wójcik', 'MÜLLER gmbh']) assert.deepEqual(await meetings(q, email), ['mtg-plain'], `${email}: ${q}`);
        assert.deepEqual(await meetings('elodie', email), []);
      }
      // The pattern's own syntax in such a text is taken literally, on both databases.
      await db.insertInto('meetings').values(meeting('mtg-syntax', 'Prix: 100€ [Été]* (a|b) ^$ \\ ? % _ .+{2}', 6)).execute();
      for (const q of ['prix: 100€ [été]* (A|B) ^$ \\ ? % _ .+{2}', 'ÉTÉ]*', '\\ ? %', 'É]* (a|b', '€ [é']) assert.deepEqual(await meetings(q, EMAILS.ada), ['mtg-syntax'], q);
      for (const q of ['été].', 'é\ud800', 'é😀']) assert.deepEqual(await meetings(q, EMAILS.ada), [], q);
      // A plain text folds ASCII alone on both: the letters a locale lowers into ASCII ("İ", the Kelvin sign) are found as written.
      await db.insertInto('meetings').values(meeting('mtg-istanbul', 'İSTANBUL \u212aELVIN visit', 7)).execute();
      for (const q of ['istanbul', 'kelvin visit']) assert.deepEqual(await meetings(q, EMAILS.ada), [], q);
      for (const q of ['İstanbul', '\u212aelvin visit']) assert.deepEqual(await meetings(q, EMAILS.ada), ['mtg-istanbul'], q);

      const deal = await db.selectFrom('deals').select(['id', 'account_id']).where('org_id', '=', orgId).orderBy('id').executeTakeFirstOrThrow();
      await db.updateTable('deals').set({ name: 'ŠKODA fleet renewal' }).where('org_id', '=', orgId).where('id', '=', deal.id).execute();
      if (deal.account_id) await db.updateTable('accounts').set({ name: 'ØRESUND Logistik' }).where('org_id', '=', orgId).where('id', '=', deal.account_id).execute();
      const deals = async (search: string) => ok<{ deals: { deal_id: string }[] }>('get_deals', await s.call(EMAILS.ada, 'get_deals', { search, status: 'all', limit: 50 })).deals.map((d) => d.deal_id);
      assert.ok((await deals('škoda FLEET')).includes(deal.id));
      if (deal.account_id) assert.ok((await deals('øresund')).includes(deal.id));

      const agent = { id: ok<{ agents: { template_id: string }[] }>('list_agents', await s.call(EMAILS.ada, 'list_agents', {})).agents[0]!.template_id };
      await db.updateTable('agents').set({ name: 'ÉVALUATION des appels' }).where('org_id', '=', orgId).where('id', '=', agent.id).execute();
      const agents = ok<{ agents: { template_id: string }[] }>('list_agents', await s.call(EMAILS.ada, 'list_agents', { q: 'évaluation' })).agents;
      assert.deepEqual(agents.map((a) => a.template_id), [agent.id]);

      // A transcript's q, matched in JavaScript: an uppercase word cut after a sigma is found too.
      const withTranscript = await db.selectFrom('transcript_segments as t').innerJoin('meetings as m', (j) => j.onRef('m.org_id', '=', 't.org_id').onRef('m.id', '=', 't.meeting_id'))
        .select(['t.meeting_id', 't.idx']).where('t.org_id', '=', orgId).where('m.owner_id', '=', mia.userId).orderBy('t.meeting_id').orderBy('t.idx').executeTakeFirstOrThrow();
      await db.updateTable('transcript_segments').set({ text: 'Ο ΟΔΥΣΣΕΑΣ ΠΑΠΑΔΟΠΟΥΛΟΣ θα στείλει την πρόταση.' }).where('org_id', '=', orgId)
        .where('meeting_id', '=', withTranscript.meeting_id).where('idx', '=', withTranscript.idx).execute();
      for (const q of ['ΟΔΥΣ', 'οδυσσεας', 'Οδυσσεας Παπαδοπουλος']) {
        const page = ok<{ matched_segments: number | null }>('get_meeting_transcript', await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: withTranscript.meeting_id, q }));
        assert.equal(page.matched_segments, 1, q);
      }
      // A speaker named in another case, a word-final sigma written as σ: toLowerCase() would make
      // the stored name's final Σ a ς and miss it.
      const segment = await db.selectFrom('transcript_segments').select('participant_id').where('org_id', '=', orgId).where('meeting_id', '=', withTranscript.meeting_id).where('idx', '=', withTranscript.idx).executeTakeFirstOrThrow();
      await db.updateTable('participants').set({ name: 'ΝΙΚΟΣ ΠΑΠΑΣ' }).where('org_id', '=', orgId).where('meeting_id', '=', withTranscript.meeting_id).where('id', '=', segment.participant_id!).execute();
      const spoken = ok<{ segments: { text: string }[] }>('get_meeting_transcript', await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: withTranscript.meeting_id, speakers: ['Νικοσ Παπασ'] })).segments;
      assert.ok(spoken.some((x) => x.text.startsWith('Ο ΟΔΥΣΣΕΑΣ')), JSON.stringify(spoken.slice(0, 2)));

      const report = { id: ok<{ reports: { report_id: string }[] }>('list_reports', await s.call(EMAILS.ada, 'list_reports', {})).reports[0]!.report_id };
      await db.updateTable('reports').set({ title: 'ОТЧЁТ за квартал' }).where('org_id', '=', orgId).where('id', '=', report.id).execute();
      const reports = ok<{ reports: { report_id: string }[] }>('list_reports', await s.call(EMAILS.ada, 'list_reports', { q: 'отчёт' })).reports;
      assert.deepEqual(reports.map((r) => r.report_id), [report.id]);
      // read_report's section by its title in another case, its final Σ asked for as σ.
      await db.updateTable('report_sections').set({ title: 'ΣΤΟΧΟΙ ΟΜΑΔΑΣ' }).where('org_id', '=', orgId).where('report_id', '=', report.id).where('idx', '=', 0).execute();
      const read = ok<{ sections: { title: string }[] }>('read_report', await s.call(EMAILS.ada, 'read_report', { report_id: report.id, section: 'Στοχοι ομαδασ' })).sections;
      assert.deepEqual([...new Set(read.map((x) => x.title))], ['ΣΤΟΧΟΙ ΟΜΑΔΑΣ']);
    });
  });
}

/** A migrated, seeded store on its own PostgreSQL database, Ada's principal, and her newest meeting, renamed. */
async function renamedMeeting(options: Parameters<typeof createTestDatabase>[1], title: string) {
  const database = await createTestDatabase('postgres', options);
  const store = openStore(database.config);
  await migrateToLatest(store);
  await seedDemo(store, { meetings: 40, anchor: ANCHOR, documents: 0 });
  const org = (await findOrganizationByDomain(store.db, 'northwind.example'))!;
  const ada = (await findUserByEmail(store.db, org.id, EMAILS.ada))!;
  const r = await principalFromAuth(store.db, { userId: ada.id, orgId: org.id });
  assert.ok(r.ok);
  const m = await store.db.selectFrom('meetings').select(['id', 'start_at']).where('org_id', '=', org.id).orderBy('start_at', 'desc').executeTakeFirstOrThrow();
  await store.db.updateTable('meetings').set({ title }).where('org_id', '=', org.id).where('id', '=', m.id).execute();
  const close = async () => {
    await store.close();
    await database.drop();
  };
  return { store, orgId: org.id, p: r.principal, id: m.id, window: { from: m.start_at - DAY, to: m.start_at + DAY }, close };
}

describe('a PostgreSQL database whose lower() lowers a character by its neighbours (ICU, Lithuanian)', { skip: !dialectsUnderTest().includes('postgres') }, () => {
  it('probes no text, plain or not, and still finds it', async () => {
    // lower("I\u0301") is "i\u0307\u0301" here: the index holds a dot the text does not. A plain
    // text is tested with ASCII folded alone (like.ts), "i\u0301z", which the index does not hold either.
    const t = await renamedMeeting({ icuLocale: 'lt' }, '\u00c9I\u0301Z kickoff');
    try {
      assert.equal((await postgresLower(t.store.db)).context, false);
      for (const q of ['\u00e9I\u0301z', 'i\u0301z']) {
        assert.equal(await textCandidates(t.store.db, { orgId: t.orgId, q, ...t.window, order: 'desc' }, t.p), 'walk', q);
        assert.deepEqual((await listMeetings(t.store.db, t.p, { ...t.window, q }, 'desc', null, 25, 500)).rows.map((r) => r.id), [t.id], q);
      }
    } finally {
      await t.close();
    }
  });
});

describe('a PostgreSQL database whose lower() folds ASCII its own way (ICU, Turkish)', { skip: !dialectsUnderTest().includes('postgres') }, () => {
  it('finds a plain text with ASCII folded alone, as SQLite does, by the walk', async () => {
    // lower("KIWI") is "kıwı" here, so the index holds "kıw" where the text asks for "kiw".
    const t = await renamedMeeting({ icuLocale: 'tr' }, 'KIWI FARMS kickoff');
    try {
      assert.equal((await postgresLower(t.store.db)).ascii, false);
      assert.equal(await textCandidates(t.store.db, { orgId: t.orgId, q: 'kiwi', ...t.window, order: 'desc' }, t.p), 'walk');
      for (const q of ['kiwi', 'KIWI farms']) assert.deepEqual((await listMeetings(t.store.db, t.p, { ...t.window, q }, 'desc', null, 25, 500)).rows.map((r) => r.id), [t.id], q);
    } finally {
      await t.close();
    }
  });
});

describe('a PostgreSQL database whose locale folds ASCII only', { skip: !dialectsUnderTest().includes('postgres') }, () => {
  it("walks for letters its lower() keeps, and still finds them", async () => {
    const database = await createTestDatabase('postgres', { ctype: 'C' });
    const store = openStore(database.config);
    try {
      await migrateToLatest(store);
      await seedDemo(store, { meetings: 40, anchor: ANCHOR, documents: 0 });
      assert.deepEqual(await postgresLower(store.db), { ascii: true, letters: false, context: true });
      const org = (await findOrganizationByDomain(store.db, 'northwind.example'))!;
      const ada = (await findUserByEmail(store.db, org.id, EMAILS.ada))!;
      const r = await principalFromAuth(store.db, { userId: ada.id, orgId: org.id });
      assert.ok(r.ok);
      const p = r.principal;
      const m = await store.db.selectFrom('meetings').select(['id', 'start_at']).where('org_id', '=', org.id).orderBy('start_at', 'desc').executeTakeFirstOrThrow();
      await store.db.updateTable('meetings').set({ title: 'ÉLODIE DURAND kickoff' }).where('org_id', '=', org.id).where('id', '=', m.id).execute();
      const window = { from: m.start_at - DAY, to: m.start_at + DAY };
      // lower() left "É" as it is in the index: a probe of "élo" would propose nothing, so it walks;
      // "élodie" asks for "lod" and "die" only.
      assert.equal(await textCandidates(store.db, { orgId: org.id, q: 'élo', ...window, order: 'desc' }, p), 'walk');
      assert.deepEqual((await listMeetings(store.db, p, { ...window, q: 'élo' }, 'desc', null, 25, 500)).rows.map((r) => r.id), [m.id]);
      assert.deepEqual((await listMeetings(store.db, p, { ...window, q: 'élodie' }, 'desc', null, 25, 500)).rows.map((r) => r.id), [m.id]);
      assert.deepEqual((await listMeetings(store.db, p, { ...window, q: 'ÉLODIE DURAND' }, 'desc', null, 25, 500)).rows.map((r) => r.id), [m.id]);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
