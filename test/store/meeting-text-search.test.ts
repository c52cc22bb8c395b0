// list_meetings' `q` through its trigram indexes (migrations 0016 and 0017, meeting-text.ts), on
// both dialects: the index follows every write to titles and participants (import, update, delete)
// and to a meeting's owner, keeps organizations apart, gives a member or a manager only the rows
// of the owners they see (and what they attended), leaves a text found in too many meetings to the
// walk with the same answer, and is filled for the meetings a database held before each upgrade.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { dialectsUnderTest, createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { planNodes } from '../support/postgres-plan.ts';
import { ANCHOR, EMAILS, ok, seededStore, type Seeded } from '../mcp/support.ts';
import { importDirectory } from '../../src/data/import.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { migrateTo } from '../support/migrate-to.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { createUser, findUserByEmail } from '../../src/store/users.ts';
import { principalFromAuth } from '../../src/access/principal.ts';
import { meetingVisible, ownersSeen } from '../../src/access/visibility.ts';
import { listCountQuery, listMeetings, listQuery } from '../../src/store/sales/meetings.ts';
import { boundFilters, textMatches } from '../../src/store/sales/meeting-filters.ts';
import { MAX_INDEX_ROWS, SAMPLE_SIZE, sqliteOwnedRows, textCandidates } from '../../src/store/sales/meeting-text.ts';
import { probeTrigrams } from '../../src/store/sales/text-probe.ts';
import { caseKey } from '../../src/store/sales/like.ts';
import { OWNER_SPAN } from '../../src/store/migrations/0017-meeting-text-owners.ts';

const DAY = 86_400_000;
type Page = { meetings: { meeting_id: string; title: string }[]; total: number | null; has_more: boolean; next_cursor: string | null };

const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

const meetingRow = (orgId: string, ownerId: string, id: string, title: string, startAt: number) => ({
  org_id: orgId, id, title, start_at: startAt, end_at: startAt + 1_800_000, status: 'completed' as const, owner_id: ownerId, team_id: null, deal_id: null,
  account_id: null, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0,
  transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
});

// The trigrams a probe asks for: few (each costs its rows' list), all the text's own, covering it.
describe('the trigrams a probe asks the index for', () => {
  it('covers the text with one trigram every third character and the last, characters not bytes', () => {
    assert.deepEqual(probeTrigrams('acm'), ['acm']);
    assert.deepEqual(probeTrigrams('acme'), ['acm', 'cme']);
    assert.deepEqual(probeTrigrams('acme insurance'), ['acm', 'e i', 'nsu', 'ran', 'nce']);
    assert.deepEqual(probeTrigrams('kowalski'), ['kow', 'als', 'ski']);
    assert.deepEqual(probeTrigrams('zürich straße'), ['zür', 'ich', ' st', 'raß', 'aße']);
    assert.deepEqual(probeTrigrams('日本語の会議'), ['日本語', 'の会議']);
    assert.deepEqual(probeTrigrams('aaaaaa'), ['aaa']);
    for (const text of ['acme insurance', 'northwind software renewal', 'ab😀cd😀ef', 'x'.repeat(50)]) {
      const chars = [...text];
      const grams = probeTrigrams(text);
      for (const g of grams) assert.ok(text.includes(g) && [...g].length === 3, `${text}: ${g}`);
      assert.ok(grams.length <= Math.ceil(chars.length / 3) + 1, `${text}: ${grams.length} trigrams`);
      // Every character of the text is in some trigram asked for.
      const covered = new Set<number>();
      for (let i = 0; i + 3 <= chars.length; i++) if (grams.includes(chars.slice(i, i + 3).join(''))) for (let j = i; j < i + 3; j++) covered.add(j);
      assert.equal(covered.size, chars.length, text);
    }
  });
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

    it('finds what a character-by-character comparison of case keys finds, for texts in many scripts and cases, cut anywhere', async () => {
      const [ada, mia] = [await s.principal(EMAILS.ada), await s.principal(EMAILS.mia)];
      // Not "İ" or the Kelvin sign: PostgreSQL's lower() turns them into ASCII letters where
      // SQLite's does not, so a plain text's LIKE finds them on one database only (like.ts).
      const alphabet = [...'aAbBcCzZ09 -@.éÉöÖßẞσΣςıiIſkﬁΩωёЁÅåµǅǆ中文😀"\'%_*?[]^$\\'];
      let seed = 7;
      const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      const text = (length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
      const from = ANCHOR - 29 * DAY;
      const rows = Array.from({ length: 120 }, (_, i) => meetingRow(orgId, mia.userId, `mtg-script-${i}`, text(12 + random(20)), from + i * 60_000));
      await s.store.db.insertInto('meetings').values(rows).execute();
      const people = rows.map((r, i) => ({ org_id: orgId, meeting_id: r.id, id: 1, email: `${text(6)}@${text(5)}.example`, name: text(10), user_id: null, side: 'buyer' as const, company: i % 3 ? text(8) : null, title: null, talk_time_ms: 0 }));
      await s.store.db.insertInto('participants').values(people).execute();
      const window = { from, to: ANCHOR };
      // The model: each character by its case key, then a substring.
      const fold = (t: string) => [...t].map(caseKey).join('');
      // Every meeting of the window each caller sees (the seed's too), with its texts folded, newest first.
      const seenBy = async (p: typeof ada) => {
        const meetings = await s.store.db.selectFrom('meetings as m').select(['m.id', 'm.title']).where('m.org_id', '=', orgId).where('m.start_at', '>=', from).where('m.start_at', '<', ANCHOR)
          .where(meetingVisible(p, 'm')).orderBy('m.start_at', 'desc').orderBy('m.id', 'desc').execute();
        const all = await s.store.db.selectFrom('participants').select(['meeting_id', 'name', 'email', 'company']).where('org_id', '=', orgId).execute();
        return meetings.map((m) => ({ id: m.id, texts: [m.title, ...all.filter((x) => x.meeting_id === m.id).flatMap((x) => [x.name, x.email ?? '', x.company ?? ''])].map(fold) }));
      };
      const callers = [{ p: ada, seen: await seenBy(ada) }, { p: mia, seen: await seenBy(mia) }];
      const sources = [...rows.map((r) => r.title), ...people.flatMap((p) => [p.name, p.email, p.company ?? ''])].filter((t) => [...t].length >= 6);
      let found = 0;
      for (let n = 0; n < 80; n++) {
        // A piece of one of the texts, 3 to 6 characters, in either case.
        const chars = [...sources[random(sources.length)]!];
        const at = random(chars.length - 3);
        const piece = chars.slice(at, at + 3 + random(4)).join('');
        const q = random(2) ? piece.toUpperCase() : piece.toLowerCase();
        // An admin reads the organization's index, a member her owners' (her own: every new one).
        for (const { p, seen } of callers) {
          const expected = seen.filter((m) => m.texts.some((t) => t.includes(fold(q)))).map((m) => m.id);
          const listed = await listMeetings(s.store.db, p, { ...window, q }, 'desc', null, 500, 500);
          assert.deepEqual(listed.rows.map((r) => r.id), expected, `${p.email}: ${JSON.stringify(q)}`);
          if (p === ada && expected.length) found += 1;
        }
      }
      assert.ok(found > 40, `${found} of 80 texts found something`);
    });

    it("keeps each organization to its own meetings", async () => {
      const globex = (await s.principal(EMAILS.gia)).orgId;
      const gus = await s.principal(EMAILS.gus);
      const [ada, gia] = [await s.principal(EMAILS.ada), await s.principal(EMAILS.gia)];
      await s.store.db.insertInto('meetings').values(meetingRow(globex, gus.userId, 'mtg-globex-walrus', 'Walrus workshop', ANCHOR - 2 * DAY)).execute();
      assert.deepEqual(await ids('walrus workshop'), []);
      // Not even a candidate: each organization's index rows are its own.
      const northwind = { orgId, from: ANCHOR - 30 * DAY, to: ANCHOR, order: 'desc' as const, q: 'walrus workshop' };
      assert.deepEqual(await textCandidates(s.store.db, northwind, ada), { idsJson: '[]', none: true });
      assert.notEqual(await textCandidates(s.store.db, { ...northwind, orgId: globex }, gia), 'walk');
      assert.deepEqual(await ids('walrus workshop', EMAILS.gia), ['mtg-globex-walrus']);
      // Nor does another organization's common use of a text make it common here: Globex holds it
      // in more index rows than a probe reads (its old meetings, out of the window's sample), and
      // Northwind's one meeting still comes from the index.
      const old = Array.from({ length: MAX_INDEX_ROWS + 50 }, (_, i) => meetingRow(globex, gus.userId, `mtg-globex-ws-${i}`, `Walrus workshop ${i}`, ANCHOR - 300 * DAY + i * 60_000));
      for (let i = 0; i < old.length; i += 500) await s.store.db.insertInto('meetings').values(old.slice(i, i + 500)).execute();
      assert.equal(await textCandidates(s.store.db, { ...northwind, orgId: globex }, gia), 'walk');
      const mia = await s.principal(EMAILS.mia);
      await s.store.db.insertInto('meetings').values(meetingRow(orgId, mia.userId, 'mtg-northwind-walrus', 'Walrus workshop', ANCHOR - 6 * DAY)).execute();
      assert.deepEqual(await textCandidates(s.store.db, northwind, ada), { idsJson: '["mtg-northwind-walrus"]', none: false });
      assert.deepEqual(await ids('walrus workshop'), ['mtg-northwind-walrus']);
    });

    it("reads, for a member or a manager, only the index rows of the owners they see and the meetings they attended", async () => {
      const [max, mia, vic] = [await s.principal(EMAILS.max), await s.principal(EMAILS.mia), await s.principal(EMAILS.vic)];
      assert.ok(max.managedMemberIds.includes(mia.userId));
      const outsider = await createUser(s.store.db, { orgId, email: 'olga.outsider@northwind.example', name: 'Olga Outsider', role: 'member' });
      assert.ok(!max.managedMemberIds.includes(outsider.id));
      // More meetings with the text than a probe reads, all owned by someone none of them sees,
      // in the window's oldest days (out of every sample).
      const hidden = Array.from({ length: MAX_INDEX_ROWS + 50 }, (_, i) => meetingRow(orgId, outsider.id, `mtg-okra-${i}`, `Okra summit ${i}`, ANCHOR - 29 * DAY + i * 10));
      for (let i = 0; i < hidden.length; i += 500) await s.store.db.insertInto('meetings').values(hidden.slice(i, i + 500)).execute();
      const window = { orgId, from: ANCHOR - 30 * DAY, to: ANCHOR, order: 'desc' as const, q: 'okra summit' };
      const ada = await s.principal(EMAILS.ada);
      assert.equal(await textCandidates(s.store.db, window, ada), 'walk');
      for (const p of [max, mia]) assert.deepEqual(await textCandidates(s.store.db, window, p), { idsJson: '[]', none: true }, p.email);
      // A viewer owns nothing they see: their list reads their attendance (the arms), not the index.
      assert.equal(await textCandidates(s.store.db, window, vic), 'walk');
      // One the member owns, one of the outsider's the member and the viewer attended: each found
      // from what that caller sees, and the member's own by her manager too.
      await s.store.db.insertInto('meetings').values([meetingRow(orgId, mia.userId, 'mtg-okra-mia', 'Okra summit, ours', ANCHOR - 3 * DAY), meetingRow(orgId, outsider.id, 'mtg-okra-attended', 'Okra summit, attended', ANCHOR - 4 * DAY)]).execute();
      const attendee = (p: typeof max, id: number) => ({ org_id: orgId, meeting_id: 'mtg-okra-attended', id, email: p.email, name: p.name, user_id: p.userId, side: 'seller' as const, company: null, title: null, talk_time_ms: 0 });
      await s.store.db.insertInto('participants').values([attendee(mia, 1), attendee(vic, 2)]).execute();
      const found = async (p: typeof max) => {
        const c = await textCandidates(s.store.db, window, p);
        assert.ok(c !== 'walk', p.email);
        return (JSON.parse(c.idsJson) as string[]).sort();
      };
      assert.deepEqual(await found(mia), ['mtg-okra-attended', 'mtg-okra-mia']);
      assert.deepEqual(await found(max), ['mtg-okra-mia']);
      for (const [email, want] of [[EMAILS.mia, ['mtg-okra-attended', 'mtg-okra-mia']], [EMAILS.max, ['mtg-okra-mia']], [EMAILS.vic, ['mtg-okra-attended']]] as const) {
        assert.deepEqual(await ids('okra summit', email), want, email);
      }
      // A meeting given to another owner moves to that owner's rows: the manager no longer finds it,
      // its new owner does; and back.
      const reassign = (owner: string) => s.store.db.updateTable('meetings').set({ owner_id: owner }).where('org_id', '=', orgId).where('id', '=', 'mtg-okra-mia').execute();
      await s.store.db.insertInto('participants').values({ org_id: orgId, meeting_id: 'mtg-okra-mia', id: 1, email: 'pia@papaya.example', name: 'Pia Papaya', user_id: null, side: 'buyer', company: 'Papaya', title: null, talk_time_ms: 0 }).execute();
      const olga = await s.principal('olga.outsider@northwind.example');
      const papaya = { ...window, q: 'papaya' };
      assert.deepEqual(await textCandidates(s.store.db, papaya, max), { idsJson: '["mtg-okra-mia"]', none: false });
      await reassign(outsider.id);
      assert.deepEqual(await textCandidates(s.store.db, papaya, max), { idsJson: '[]', none: true });
      assert.deepEqual(await textCandidates(s.store.db, papaya, olga), { idsJson: '["mtg-okra-mia"]', none: false });
      await reassign(mia.userId);
      assert.deepEqual(await textCandidates(s.store.db, papaya, olga), { idsJson: '[]', none: true });
      assert.deepEqual(await textCandidates(s.store.db, papaya, mia), { idsJson: '["mtg-okra-mia"]', none: false });
      // Participants written before their meeting take its owner when it comes.
      await s.store.db.insertInto('participants').values({ org_id: orgId, meeting_id: 'mtg-okra-late', id: 1, email: 'quinn@quince.example', name: 'Quinn Quince', user_id: null, side: 'buyer', company: null, title: null, talk_time_ms: 0 }).execute();
      await s.store.db.insertInto('meetings').values(meetingRow(orgId, mia.userId, 'mtg-okra-late', 'Late okra', ANCHOR - 5 * DAY)).execute();
      assert.deepEqual(await textCandidates(s.store.db, { ...window, q: 'quince' }, mia), { idsJson: '["mtg-okra-late"]', none: false });
      assert.deepEqual(await ids('quince', EMAILS.max), ['mtg-okra-late']);
      // A meeting deleted (its participants stay: they have no key to it) and written again under
      // another owner: its participants move with it.
      await s.store.db.deleteFrom('meetings').where('org_id', '=', orgId).where('id', '=', 'mtg-okra-late').execute();
      assert.deepEqual(await textCandidates(s.store.db, { ...window, q: 'quince' }, mia), { idsJson: '[]', none: true });
      await s.store.db.insertInto('meetings').values(meetingRow(orgId, outsider.id, 'mtg-okra-late', 'Late okra, again', ANCHOR - 5 * DAY)).execute();
      assert.deepEqual(await textCandidates(s.store.db, { ...window, q: 'quince' }, mia), { idsJson: '[]', none: true });
      assert.deepEqual(await textCandidates(s.store.db, { ...window, q: 'quince' }, olga), { idsJson: '["mtg-okra-late"]', none: false });
      assert.deepEqual(await ids('quince', 'olga.outsider@northwind.example'), ['mtg-okra-late']);
      // A title changed and a participant deleted leave the owner's rows too.
      await s.store.db.updateTable('meetings').set({ title: 'Tamarind talks' }).where('org_id', '=', orgId).where('id', '=', 'mtg-okra-mia').execute();
      await s.store.db.deleteFrom('participants').where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-okra-mia').execute();
      for (const [q, want] of [['okra summit, ours', '[]'], ['papaya', '[]'], ['tamarind', '["mtg-okra-mia"]']] as const) {
        assert.deepEqual(await textCandidates(s.store.db, { ...window, q }, mia), { idsJson: want, none: want === '[]' }, q);
      }
      if (dialect === 'postgres') {
        // Every participant carries its meeting's owner, or none without a meeting.
        const wrong = await sql<{ n: number }>`select count(*)::int as n from participants p
          where p.owner_id is distinct from (select m.owner_id from meetings m where m.org_id = p.org_id and m.id = p.meeting_id)`.execute(s.store.db);
        assert.equal(wrong.rows[0]!.n, 0);
        // The text test reads each meeting's own text (0020) by its keys: never one hashed pass over
        // every meeting's text or participant (of every organization) for a sample or a list of many meetings.
        const sample = s.store.db.selectFrom('meetings as m').select('m.id').where('m.org_id', '=', orgId).where(textMatches(boundFilters(s.store.db, { from: 0, to: 1, q: 'okra' }).qMatch!)).compile();
        const plan = (await s.store.db.executeQuery<{ 'QUERY PLAN': string }>({ ...sample, sql: `explain ${sample.sql}` })).rows.map((r) => r['QUERY PLAN']).join('\n');
        assert.doesNotMatch(plan, /hashed SubPlan|Seq Scan on (participants|meeting_search_text)/, plan);
      }
      if (dialect === 'sqlite') {
        // The probe reads the owners first, then each one's range of the index: the other way
        // round it would read every organization's matches of the text.
        const probe = sql`select count(*) as n from (${sqliteOwnedRows(orgId, probeTrigrams('okra summit'), [mia.userId, max.userId])} limit 10)`.compile(s.store.db);
        const plan = (await s.store.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${probe.sql}`, [...probe.parameters]))).rows.map((r) => r.detail);
        const owners = plan.findIndex((d) => /^SEARCH k /.test(d));
        const index = plan.findIndex((d) => /^SCAN f VIRTUAL TABLE/.test(d));
        assert.ok(owners >= 0 && index > owners, plan.join('\n'));
        // Each index row of a written meeting in its owner's range, no other (rows of participants
        // without a meeting in none), and the index holding exactly those entries.
        const keyed = await sql<{ rowid: number; right: number }>`select r.owner_key * ${sql.raw(OWNER_SPAN)} + r.id as rowid,
          (r.owner_key is (select k.id from meetings m join meeting_text_owners k on k.org_id = m.org_id and k.owner_id = m.owner_id
            where m.org_id = r.org_id and m.id = r.meeting_id)) as "right" from meeting_text_rows r`.execute(s.store.db);
        assert.deepEqual(keyed.rows.filter((r) => !r.right), []);
        const indexed = await sql<{ rowid: number }>`select rowid from meeting_text_owned order by rowid`.execute(s.store.db);
        const expected = keyed.rows.filter((r) => r.rowid !== null).map((r) => Number(r.rowid)).sort((a, b) => a - b);
        assert.deepEqual(indexed.rows.map((r) => Number(r.rowid)), expected);
      }
    });

    it('tests a text once for a first page and its count on PostgreSQL, one walk for both', { skip: dialect !== 'postgres' }, async () => {
      // As a page and a count of their own, each tested the text on every meeting it walked: a text
      // with fewer matches than a page had the window's texts read twice. Now each way the list
      // reads the window (an admin's walk, a viewer's attendance, a member's own meetings and
      // attendance) reads them once.
      for (const [email, ways] of [[EMAILS.ada, 1], [EMAILS.vic, 1], [EMAILS.mia, 2]] as const) {
        const p = await s.principal(email);
        const q = listQuery(s.store.db, p, { from: ANCHOR - 30 * DAY, to: ANCHOR, q: 'no such text anywhere' }, 'desc', null, 26, 500);
        const scans = (await planNodes(s.store.db, q)).filter((n) => n['Relation Name'] === 'meeting_search_text');
        assert.equal(scans.length, ways, email);
      }
    });

    it("walks a manager's window from the index alone, reading no row of a meeting his policy leaves out (migration 0022)", async () => {
      // meetings_start holds each meeting's owner, so the walk tests "an owner he sees, or a
      // meeting he attended" before it reads a row: SQLite counts from the covering index, and
      // PostgreSQL scans it index-only, for the count and for a first page's one walk (its
      // visibility map set by a vacuum, as autovacuum keeps it). Before, a rare text's walk read
      // the row of every meeting of the window.
      const p = await s.principal(EMAILS.max);
      const seen = ownersSeen(p);
      assert.ok(seen !== 'all' && seen.length > 1, 'a manager of a team: his list walks the window');
      const f = { from: ANCHOR - 365 * DAY, to: ANCHOR, q: 'no such text anywhere' };
      if (dialect === 'sqlite') {
        const c = listCountQuery(s.store.db, p, f, 'desc', 500);
        const plan = await s.store.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]));
        const details = plan.rows.map((r) => r.detail);
        assert.ok(details.some((d) => d.includes('COVERING INDEX meetings_start ')), details.join('\n'));
        return;
      }
      await sql`vacuum (analyze) meetings`.execute(s.store.db);
      const scans = await s.store.db.transaction().execute(async (trx) => {
        // The table is small; production's is not.
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        const nodes = [...(await planNodes(trx, listCountQuery(trx, p, f, 'desc', 500))), ...(await planNodes(trx, listQuery(trx, p, f, 'desc', null, 25, 500)))];
        return nodes.filter((n) => n['Index Name'] === 'meetings_start').map((n) => n['Node Type']);
      });
      assert.deepEqual(scans, ['Index Only Scan', 'Index Only Scan']);
    });

    it("pages a member's own meetings she attended once each, though her attendance's copy of their start lags", { skip: dialect !== 'postgres' }, async () => {
      // Her own arm and her attendance both hold these meetings; a copy of a start that lags the
      // meeting's own for a moment (a concurrent move) must not give one meeting two places on the page.
      const mia = await s.principal(EMAILS.mia);
      const okapis = Array.from({ length: 30 }, (_, i) => meetingRow(orgId, mia.userId, `mtg-okapi-${String(i).padStart(2, '0')}`, `Okapi sync ${i}`, ANCHOR - DAY + i * 60_000));
      await s.store.db.insertInto('meetings').values(okapis).execute();
      await s.store.db.insertInto('participants').values(okapis.map((m) => ({ org_id: orgId, meeting_id: m.id, id: 1, email: EMAILS.mia, name: 'Mia', user_id: mia.userId, side: 'seller' as const, company: null, title: null, talk_time_ms: 0 }))).execute();
      try {
        await s.store.db.transaction().execute(async (tx) => {
          // The triggers that hand a meeting's start down (migration 0011) stay out of this one write.
          await sql`set local session_replication_role = replica`.execute(tx);
          await sql`update participants set start_at = start_at - 1 where org_id = ${orgId} and meeting_id in (${sql.join(okapis.map((m) => m.id))})`.execute(tx);
        });
        const page = await list({ q: 'okapi sync', range: 'last_30_days' }, EMAILS.mia);
        assert.deepEqual(page.meetings.map((i) => i.meeting_id), okapis.map((m) => m.id).reverse().slice(0, 25));
        assert.equal(page.total, 30);
        assert.equal(page.has_more, true);
      } finally {
        await s.store.db.deleteFrom('meetings').where('org_id', '=', orgId).where('id', 'in', okapis.map((m) => m.id)).execute();
      }
    });

    it("counts a manager's own rows once toward the probe's bound, though he is also among his team's members", async () => {
      const max = await s.principal(EMAILS.max);
      // He is a member of a team he manages, and the policy reads him once.
      const inHisTeams = await s.store.db.selectFrom('team_members').select('user_id').where('org_id', '=', orgId).where('user_id', '=', max.userId).where('team_id', 'in', max.managedTeamIds).execute();
      assert.ok(inHisTeams.length > 0);
      assert.equal((ownersSeen(max) as string[]).filter((id) => id === max.userId).length, 1);
      // More than half the bound, behind the sample (his newest meetings say something else):
      // probed twice, they would pass it.
      const many = Array.from({ length: MAX_INDEX_ROWS / 2 + 20 }, (_, i) => meetingRow(orgId, max.userId, `mtg-quokka-${i}`, `Quokka forum ${i}`, ANCHOR - 28 * DAY + i * 10));
      const newer = Array.from({ length: SAMPLE_SIZE }, (_, i) => meetingRow(orgId, max.userId, `mtg-wallaby-${i}`, `Wallaby sync ${i}`, ANCHOR - DAY + i * 10));
      const all = [...many, ...newer];
      for (let i = 0; i < all.length; i += 500) await s.store.db.insertInto('meetings').values(all.slice(i, i + 500)).execute();
      const found = await textCandidates(s.store.db, { orgId, from: ANCHOR - 30 * DAY, to: ANCHOR, order: 'desc', q: 'quokka forum' }, max);
      assert.ok(found !== 'walk');
      assert.equal((JSON.parse(found.idsJson) as string[]).length, many.length);
      // Gone again: the next test needs the window's newest meetings to be its own.
      await s.store.db.deleteFrom('meetings').where('org_id', '=', orgId).where('id', 'in', all.map((m) => m.id)).execute();
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
      const ada = await s.principal(EMAILS.ada);
      const search = (q: string) => textCandidates(s.store.db, { ...window, q }, ada);
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

  describe(`migrations 0016 and 0017 on an existing database (${dialect})`, () => {
    const opened: { database: TestDatabase; store: Store }[] = [];
    after(async () => {
      for (const { database, store } of opened) {
        await store.close();
        await database.drop();
      }
    });
    /** A database of the demo data at `migration` (the test migrates it on), and `email`'s principal there. */
    async function seededAt(migration: string, email: string) {
      const database = await createTestDatabase(dialect);
      const store = openStore(database.config);
      opened.push({ database, store });
      await migrateTo(store, migration);
      await seedDemo(store, { meetings: 60, anchor: ANCHOR, documents: 0 });
      const org = (await findOrganizationByDomain(store.db, 'northwind.example'))!;
      const user = (await findUserByEmail(store.db, org.id, email))!;
      const r = await principalFromAuth(store.db, { userId: user.id, orgId: org.id });
      assert.ok(r.ok);
      return { store, org, r };
    }

    it('indexes the titles and participants already there: each text finds the meetings the raw rows hold', async () => {
      const { store, org, r } = await seededAt('0015-upcoming-meetings-index', EMAILS.ada);
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
      const rare = await textCandidates(store.db, { orgId: org.id, q: buyer.email!, ...window, order: 'desc' }, r.principal);
      assert.ok(rare !== 'walk' && !rare.none);
      for (const [i, q] of texts.entries()) {
        assert.deepEqual((await listMeetings(store.db, r.principal, { ...window, q }, 'desc', null, 500, 500)).rows.map((m) => m.id), before[i], q);
      }
    });

    it("files the rows already there under their meetings' owners: a manager's rare text comes from his members' rows", async () => {
      const { store, org, r } = await seededAt('0016-meeting-text-index', EMAILS.max);
      assert.ok(r.principal.managedMemberIds.length > 0);
      const window = { from: ANCHOR - 400 * DAY, to: ANCHOR + 60 * DAY };
      // A buyer at a meeting one of his members owns and he did not attend: only his members' rows can propose it.
      const buyer = await store.db.selectFrom('participants as p').innerJoin('meetings as m', (j) => j.onRef('m.org_id', '=', 'p.org_id').onRef('m.id', '=', 'p.meeting_id'))
        .select(['p.meeting_id', 'p.email']).where('p.org_id', '=', org.id).where('m.owner_id', 'in', r.principal.managedMemberIds).where('p.side', '=', 'buyer').where('p.email', 'is not', null)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('participants as me').select('me.id').whereRef('me.org_id', '=', 'm.org_id').whereRef('me.meeting_id', '=', 'm.id').where('me.email', '=', EMAILS.max))))
        .orderBy('p.meeting_id').executeTakeFirstOrThrow();
      await migrateToLatest(store);
      const rare = await textCandidates(store.db, { orgId: org.id, q: buyer.email!, ...window, order: 'desc' }, r.principal);
      assert.ok(rare !== 'walk' && (JSON.parse(rare.idsJson) as string[]).includes(buyer.meeting_id));
      // The same meetings as the policy and the LIKE alone.
      const exact = await store.db.selectFrom('meetings as m').select('m.id').where(meetingVisible(r.principal, 'm')).where('m.start_at', '>=', window.from).where('m.start_at', '<', window.to)
        .where(textMatches(boundFilters(store.db, { ...window, q: buyer.email! }).qMatch!)).orderBy('m.start_at', 'desc').orderBy('m.id', 'desc').execute();
      assert.ok(exact.some((m) => m.id === buyer.meeting_id));
      assert.deepEqual((await listMeetings(store.db, r.principal, { ...window, q: buyer.email! }, 'desc', null, 500, 500)).rows.map((m) => m.id), exact.map((m) => m.id));
    });
  });
}
