// list_meetings' `q` through its trigram index (migration 0016, meeting-text.ts), on both dialects:
// the index follows every write to titles and participants (import, update, delete), keeps
// organizations apart, leaves a text found in too many meetings to the walk with the same answer,
// and is filled for the meetings a database held before the upgrade.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { dialectsUnderTest, createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { ANCHOR, EMAILS, ok, seededStore, type Seeded } from '../mcp/support.ts';
import { importDirectory } from '../../src/data/import.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { migrateTo } from '../support/migrate-to.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail } from '../../src/store/users.ts';
import { principalFromAuth } from '../../src/access/principal.ts';
import { listMeetings } from '../../src/store/sales/meetings.ts';
import { boundFilters, textMatches } from '../../src/store/sales/meeting-filters.ts';
import { MAX_INDEX_ROWS, SAMPLE_SIZE, textCandidates } from '../../src/store/sales/meeting-text.ts';

const DAY = 86_400_000;
type Page = { meetings: { meeting_id: string; title: string }[]; total: number | null; has_more: boolean; next_cursor: string | null };

const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

const meetingRow = (orgId: string, ownerId: string, id: string, title: string, startAt: number) => ({
  org_id: orgId, id, title, start_at: startAt, end_at: startAt + 1_800_000, status: 'completed' as const, owner_id: ownerId, team_id: null, deal_id: null,
  account_id: null, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0,
  transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
});

for (const dialect of dialectsUnderTest()) {
  describe(`list_meetings q through the trigram index (${dialect})`, () => {
    let s: Seeded;
    let orgId: string;
    let dir: string;
    const list = async (args: Record<string, unknown>, email: string = EMAILS.ada) => ok<Page>('list_meetings', await s.call(email, 'list_meetings', { limit: 25, ...args }));
    const ids = async (q: string, email: string = EMAILS.ada) => (await list({ q, range: 'last_30_days' }, email)).meetings.map((i) => i.meeting_id).sort();

    /** Writes one import of one meeting and its participants, as the CLI would read them. */
    async function importMeeting(title: string, people: { id: number; name: string; email: string; company?: string }[]) {
      writeFileSync(join(dir, 'meetings.ndjson'), ndjson([{ id: 'mtg-text-1', title, start: new Date(ANCHOR - 3 * DAY).toISOString(), end: new Date(ANCHOR - 3 * DAY + 3_600_000).toISOString(), status: 'completed', owner_email: EMAILS.mia, meeting_type: 'external' }]));
      writeFileSync(join(dir, 'participants.ndjson'), ndjson(people.map((p) => ({ meeting_id: 'mtg-text-1', side: 'buyer', talk_time_ms: 0, ...p }))));
      const reports = await importDirectory(s.store, orgId, dir);
      assert.deepEqual(reports.filter((r) => r.status === 'rejected'), []);
    }

    before(async () => {
      s = await seededStore(dialect, 60);
      orgId = (await s.principal(EMAILS.ada)).orgId;
      dir = mkdtempSync(join(tmpdir(), 'meeting-text-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await s.cleanup();
    });

    it('finds an imported meeting by its title and by each participant field, in any case, and not by text across two fields', async () => {
      await importMeeting('Quarterly Zebra review — Café Lumière', [
        { id: 1, name: 'Quentin Quasar', email: 'quentin@zorgcorp.example', company: 'Zorgcorp' },
        { id: 2, name: 'Rhea Ruby', email: 'rhea@ruby-works.example' },
      ]);
      for (const q of ['zebra', 'ZEBRA REVIEW', 'café lum', 'quentin qua', 'QUASAR', '@zorgcorp.ex', 'zorgcorp', 'ruby-works', 'hea rub']) assert.deepEqual(await ids(q), ['mtg-text-1'], q);
      // "Quasar" ends the name and "quentin@" starts the email: both are indexed, the LIKE tests one field at a time.
      assert.deepEqual(await ids('quasar\nquentin'), []);
      assert.deepEqual(await ids('quasarquentin'), []);
      assert.deepEqual(await ids('no such text anywhere'), []);
    });

    it('follows a title, a name, an email and a company changed by a later import, and rows deleted', async () => {
      await importMeeting('Quarterly Yak review', [
        { id: 1, name: 'Quentin Nebula', email: 'quentin@orbitco.example', company: 'Orbitco' },
        { id: 2, name: 'Rhea Ruby', email: 'rhea@ruby-works.example' },
      ]);
      for (const gone of ['zebra', 'quasar', 'zorgcorp']) assert.deepEqual(await ids(gone), [], gone);
      for (const found of ['yak review', 'nebula', '@orbitco', 'orbitco', 'rhea ruby']) assert.deepEqual(await ids(found), ['mtg-text-1'], found);
      // An import of the same rows again changes nothing.
      await importMeeting('Quarterly Yak review', [
        { id: 1, name: 'Quentin Nebula', email: 'quentin@orbitco.example', company: 'Orbitco' },
        { id: 2, name: 'Rhea Ruby', email: 'rhea@ruby-works.example' },
      ]);
      assert.deepEqual(await ids('nebula'), ['mtg-text-1']);
      await s.store.db.deleteFrom('participants').where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-text-1').where('id', '=', 1).execute();
      assert.deepEqual(await ids('nebula'), []);
      assert.deepEqual(await ids('rhea ruby'), ['mtg-text-1']);
      // One field at a time: the name, the email, the company.
      const update = (set: { name?: string; email?: string; company?: string }) => s.store.db.updateTable('participants').set(set).where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-text-1').execute();
      await update({ email: 'rhea@jasper-mills.example' });
      assert.deepEqual(await ids('ruby-works'), []);
      assert.deepEqual(await ids('jasper-mills'), ['mtg-text-1']);
      await update({ company: 'Opal Foundry' });
      assert.deepEqual(await ids('opal foundry'), ['mtg-text-1']);
      await update({ company: 'Onyx Foundry' });
      assert.deepEqual(await ids('opal foundry'), []);
      await update({ name: 'Rhea Garnet' });
      assert.deepEqual(await ids('rhea ruby'), []);
      assert.deepEqual(await ids('garnet'), ['mtg-text-1']);
      // A meeting moved out of the window and back: the index follows its start.
      const moveTo = (start: number) => s.store.db.updateTable('meetings').set({ start_at: start, end_at: start + 1_800_000 }).where('org_id', '=', orgId).where('id', '=', 'mtg-text-1').execute();
      await moveTo(ANCHOR - 60 * DAY);
      assert.deepEqual(await ids('garnet'), []);
      await moveTo(ANCHOR - 20 * DAY);
      const around = { start: new Date(ANCHOR - 21 * DAY).toISOString(), end: new Date(ANCHOR - 19 * DAY).toISOString() };
      for (const q of ['garnet', 'yak review']) assert.deepEqual((await list({ q, ...around })).meetings.map((m) => m.meeting_id), ['mtg-text-1'], q);
      assert.deepEqual(await ids('garnet'), ['mtg-text-1']);
      await s.store.db.deleteFrom('participants').where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-text-1').execute();
      await s.store.db.deleteFrom('meetings').where('org_id', '=', orgId).where('id', '=', 'mtg-text-1').execute();
      for (const q of ['yak review', 'garnet']) assert.deepEqual(await ids(q), [], q);
      if (dialect === 'sqlite') {
        // One index row per title and per participant, none left behind.
        const counts = await sql<{ rows: number; expected: number }>`select (select count(*) from meeting_text_rows) as rows,
          (select count(*) from meetings) + (select count(*) from participants) as expected`.execute(s.store.db);
        assert.equal(Number(counts.rows[0]!.rows), Number(counts.rows[0]!.expected));
      }
    });

    it('finds a meeting by participants written before it', async () => {
      const mia = await s.principal(EMAILS.mia);
      await s.store.db.insertInto('participants').values({ org_id: orgId, meeting_id: 'mtg-late', id: 1, email: 'ivo@okapi.example', name: 'Ivo Okapi', user_id: null, side: 'buyer', company: 'Okapi', title: null, talk_time_ms: 0 }).execute();
      assert.deepEqual(await ids('okapi'), []);
      await s.store.db.insertInto('meetings').values(meetingRow(orgId, mia.userId, 'mtg-late', 'Late arrival', ANCHOR - 4 * DAY)).execute();
      assert.deepEqual(await ids('okapi'), ['mtg-late']);
    });

    it('finds what the LIKE finds for texts in many scripts and cases, cut anywhere (the index proposes a superset)', async () => {
      const mia = await s.principal(EMAILS.mia);
      const alphabet = [...'aAbBcCzZ09 -@.éÉöÖßẞσΣςİıiIſkKﬁΩωёЁ中文😀"\'%_'];
      let seed = 7;
      const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      const text = (length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
      const from = ANCHOR - 29 * DAY;
      const rows = Array.from({ length: 120 }, (_, i) => meetingRow(orgId, mia.userId, `mtg-script-${i}`, text(12 + random(20)), from + i * 60_000));
      await s.store.db.insertInto('meetings').values(rows).execute();
      const people = rows.map((r, i) => ({ org_id: orgId, meeting_id: r.id, id: 1, email: `${text(6)}@${text(5)}.example`, name: text(10), user_id: null, side: 'buyer' as const, company: i % 3 ? text(8) : null, title: null, talk_time_ms: 0 }));
      await s.store.db.insertInto('participants').values(people).execute();
      const window = { from, to: ANCHOR };
      const sources = [...rows.map((r) => r.title), ...people.flatMap((p) => [p.name, p.email, p.company ?? ''])].filter((t) => [...t].length >= 6);
      let found = 0;
      for (let n = 0; n < 80; n++) {
        // A piece of one of the texts, 3 to 6 characters, in either case.
        const chars = [...sources[random(sources.length)]!];
        const at = random(chars.length - 3);
        const piece = chars.slice(at, at + 3 + random(4)).join('');
        const q = random(2) ? piece.toUpperCase() : piece.toLowerCase();
        const bound = boundFilters({ ...window, q });
        const exact = await s.store.db.selectFrom('meetings as m').select('m.id').where('m.org_id', '=', orgId).where('m.start_at', '>=', from).where('m.start_at', '<', ANCHOR)
          .where(textMatches(bound.qPattern!)).orderBy('m.start_at', 'desc').orderBy('m.id', 'desc').execute();
        const listed = await listMeetings(s.store.db, await s.principal(EMAILS.ada), { ...window, q }, 'desc', null, 500, 500);
        assert.deepEqual(listed.rows.map((r) => r.id), exact.map((r) => r.id), JSON.stringify(q));
        if (exact.length) found += 1;
      }
      assert.ok(found > 40, `${found} of 80 texts found something`);
    });

    it("keeps each organization to its own meetings", async () => {
      const globex = (await s.principal(EMAILS.gia)).orgId;
      const gus = await s.principal(EMAILS.gus);
      await s.store.db.insertInto('meetings').values(meetingRow(globex, gus.userId, 'mtg-globex-walrus', 'Walrus workshop', ANCHOR - 2 * DAY)).execute();
      assert.deepEqual(await ids('walrus workshop'), []);
      // Not even a candidate: each organization's index rows are its own.
      const northwind = { orgId, from: ANCHOR - 30 * DAY, to: ANCHOR, order: 'desc' as const, q: 'walrus workshop' };
      assert.deepEqual(await textCandidates(s.store.db, northwind), { idsJson: '[]', none: true });
      assert.notEqual(await textCandidates(s.store.db, { ...northwind, orgId: globex }), 'walk');
      assert.deepEqual(await ids('walrus workshop', EMAILS.gia), ['mtg-globex-walrus']);
      // Nor does another organization's common use of a text make it common here: Globex holds it
      // in more index rows than a probe reads (its old meetings, out of the window's sample), and
      // Northwind's one meeting still comes from the index.
      const old = Array.from({ length: MAX_INDEX_ROWS + 50 }, (_, i) => meetingRow(globex, gus.userId, `mtg-globex-ws-${i}`, `Walrus workshop ${i}`, ANCHOR - 300 * DAY + i * 60_000));
      for (let i = 0; i < old.length; i += 500) await s.store.db.insertInto('meetings').values(old.slice(i, i + 500)).execute();
      assert.equal(await textCandidates(s.store.db, { ...northwind, orgId: globex }), 'walk');
      const mia = await s.principal(EMAILS.mia);
      await s.store.db.insertInto('meetings').values(meetingRow(orgId, mia.userId, 'mtg-northwind-walrus', 'Walrus workshop', ANCHOR - 6 * DAY)).execute();
      assert.deepEqual(await textCandidates(s.store.db, northwind), { idsJson: '["mtg-northwind-walrus"]', none: false });
      assert.deepEqual(await ids('walrus workshop'), ['mtg-northwind-walrus']);
    });

    it("walks for a text common in the window's first meetings or in the index, lists candidates otherwise: the same answers", async () => {
      const mia = await s.principal(EMAILS.mia);
      const rows = (prefix: string, title: string, n: number, from: number) =>
        Array.from({ length: n }, (_, i) => meetingRow(orgId, mia.userId, `${prefix}-${String(i).padStart(5, '0')}`, `${title} ${i}`, from + i * 60_000));
      const fillers = rows('mtg-filler', 'Filler standup', SAMPLE_SIZE + 50, ANCHOR - 2 * DAY); // the window's newest
      const narwhals = rows('mtg-narwhal', 'Narwhal review', 300, ANCHOR - 10 * DAY);
      const tapirs = rows('mtg-tapir', 'Tapir sync', MAX_INDEX_ROWS + 150, ANCHOR - 25 * DAY);
      const all = [...fillers, ...narwhals, ...tapirs];
      for (let i = 0; i < all.length; i += 500) await s.store.db.insertInto('meetings').values(all.slice(i, i + 500)).execute();
      const window = { orgId, from: ANCHOR - 30 * DAY, to: ANCHOR, order: 'desc' as const };
      const search = (q: string) => textCandidates(s.store.db, { ...window, q });
      // Which way each text goes: in the sample, few enough in the index, too many there.
      assert.equal(await search('filler standup'), 'walk');
      const narwhal = await search('narwhal review');
      assert.ok(narwhal !== 'walk');
      assert.equal((JSON.parse(narwhal.idsJson) as string[]).length, 300);
      assert.equal(await search('tapir sync'), 'walk');
      for (const [q, meetings, total] of [['filler standup', fillers, SAMPLE_SIZE + 50], ['narwhal review', narwhals, 300], ['tapir sync', tapirs, null]] as const) {
        const newest = meetings.map((r) => r.id).reverse();
        const page = await list({ q, range: 'last_30_days' });
        assert.equal(page.total, total, q);
        assert.deepEqual(page.meetings.map((i) => i.meeting_id), newest.slice(0, 25), q);
        // And on through the cursors, for the text listed by id.
        if (q !== 'narwhal review') continue;
        let cursor = page.next_cursor;
        const seen = page.meetings.map((i) => i.meeting_id);
        while (cursor) {
          const next = await list({ q, range: 'last_30_days', cursor });
          seen.push(...next.meetings.map((i) => i.meeting_id));
          cursor = next.next_cursor;
        }
        assert.deepEqual(seen, newest);
        const oldest = await list({ q, range: 'last_30_days', sort: 'start_asc' });
        assert.deepEqual(oldest.meetings.map((i) => i.meeting_id), meetings.map((r) => r.id).slice(0, 25));
      }
    });
  });

  describe(`migration 0016 on an existing database (${dialect})`, () => {
    let database: TestDatabase;
    let store: Store;
    after(async () => {
      await store?.close();
      await database?.drop();
    });

    it('indexes the titles and participants already there: each text finds the meetings the raw rows hold', async () => {
      database = await createTestDatabase(dialect);
      store = openStore(database.config);
      await migrateTo(store, '0015-upcoming-meetings-index');
      await seedDemo(store, { meetings: 60, anchor: ANCHOR, documents: 0 });
      const org = (await findOrganizationByDomain(store.db, 'northwind.example'))!;
      const user = (await findUserByEmail(store.db, org.id, EMAILS.ada))!;
      const r = await principalFromAuth(store.db, { userId: user.id, orgId: org.id });
      assert.ok(r.ok);
      const window = { from: ANCHOR - 400 * DAY, to: ANCHOR + 60 * DAY };
      // What each text finds, from the raw rows: an admin sees every meeting of the window.
      const meetings = await store.db.selectFrom('meetings').select(['id', 'title', 'start_at']).where('org_id', '=', org.id).execute();
      const people = await store.db.selectFrom('participants').select(['meeting_id', 'name', 'email', 'company']).where('org_id', '=', org.id).execute();
      const matching = (q: string) =>
        meetings
          .filter((m) => m.start_at >= window.from && m.start_at < window.to)
          .filter((m) => [m.title, ...people.filter((p) => p.meeting_id === m.id).flatMap((p) => [p.name, p.email, p.company])].some((v) => v?.toLowerCase().includes(q.toLowerCase())))
          .sort((a, b) => b.start_at - a.start_at || (a.id < b.id ? 1 : -1))
          .map((m) => m.id);
      // A title's word, a seller's email domain and a buyer's company.
      const buyer = people.find((p) => p.company && !p.email?.endsWith('@northwind.example'))!;
      const texts = [meetings[0]!.title.slice(0, 8), '@northwind.example', buyer.company!, buyer.email!];
      const before = texts.map(matching);
      for (const [i, found] of before.entries()) assert.ok(found.length > 0, texts[i]);
      await migrateToLatest(store);
      // The buyer's email is rare: its meetings come from the index filled by the migration.
      const rare = await textCandidates(store.db, { orgId: org.id, q: buyer.email!, ...window, order: 'desc' });
      assert.ok(rare !== 'walk' && !rare.none);
      for (const [i, q] of texts.entries()) {
        assert.deepEqual((await listMeetings(store.db, r.principal, { ...window, q }, 'desc', null, 500, 500)).rows.map((m) => m.id), before[i], q);
      }
    });
  });
}
