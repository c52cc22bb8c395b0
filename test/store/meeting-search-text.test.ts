// Migration 0020: each meeting's searchable text in one row (meeting_search_text), which
// list_meetings' `q` tests. A text left behind would find a meeting by a participant who left it,
// and one missing would hide a match, so every write that changes it is followed here, on both
// dialects, against the text computed from the tables themselves: inserts in either order, a new
// title, a participant renamed, moved and deleted, a deleted meeting, an import's upserts, and the
// upgrade's fill of the rows already there. A `q` holding the fields' separator is tested field
// by field.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { dialectsUnderTest, createTestDatabase } from '../support/databases.ts';
import { ANCHOR, EMAILS, seededStore, type Seeded } from '../mcp/support.ts';
import { importDirectory } from '../../src/data/import.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { migrateTo } from '../support/migrate-to.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { listMeetings } from '../../src/store/sales/meetings.ts';
import { FIELD_SEPARATOR } from '../../src/store/migrations/0020-meeting-search-text.ts';

const DAY = 86_400_000;
const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** What each meeting's text should be, from the tables (participants by id), and what it is. */
async function texts(store: Store): Promise<{ expected: Map<string, string>; stored: Map<string, string> }> {
  const meetings = await store.db.selectFrom('meetings').select(['org_id', 'id', 'title']).execute();
  const people = await store.db.selectFrom('participants').select(['org_id', 'meeting_id', 'id', 'name', 'email', 'company']).orderBy('id').execute();
  const expected = new Map<string, string>();
  for (const m of meetings) {
    const own = people.filter((p) => p.org_id === m.org_id && p.meeting_id === m.id).map((p) => [p.name, p.email ?? '', p.company ?? ''].join(FIELD_SEPARATOR));
    expected.set(`${m.org_id}/${m.id}`, [m.title, own.join(FIELD_SEPARATOR)].join(FIELD_SEPARATOR));
  }
  const rows = await store.db.selectFrom('meeting_search_text').select(['org_id', 'meeting_id', 'body']).execute();
  return { expected, stored: new Map(rows.map((r) => [`${r.org_id}/${r.meeting_id}`, r.body])) };
}

/** Every meeting has its text and no other row is kept; each text holds the same fields (SQLite's group_concat has no order). */
async function assertKept(store: Store, step: string): Promise<void> {
  const { expected, stored } = await texts(store);
  const fields = (t: string | undefined) => {
    if (t === undefined) return undefined;
    const [title, ...rest] = t.split(FIELD_SEPARATOR);
    const people: string[] = [];
    for (let i = 0; i + 2 < rest.length; i += 3) people.push(rest.slice(i, i + 3).join(FIELD_SEPARATOR));
    return [title, ...people.sort()];
  };
  assert.deepEqual([...stored.keys()].sort(), [...expected.keys()].sort(), `${step}: which meetings`);
  for (const [key, text] of expected) assert.deepEqual(fields(stored.get(key)), fields(text), `${step}: ${key}`);
}

for (const dialect of dialectsUnderTest()) {
  describe(`each meeting's searchable text in one row (${dialect})`, () => {
    let s: Seeded;
    let orgId: string;
    let dir: string;

    before(async () => {
      s = await seededStore(dialect, 30);
      orgId = (await s.principal(EMAILS.ada)).orgId;
      dir = mkdtempSync(join(tmpdir(), 'meeting-search-text-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await s.cleanup();
    });

    it('follows every write to titles and participants', async () => {
      const db = s.store.db;
      const mia = await s.principal(EMAILS.mia);
      await assertKept(s.store, 'seeded');
      const meeting = (id: string, title: string) => ({
        org_id: orgId, id, title, start_at: ANCHOR - 2 * DAY, end_at: ANCHOR - 2 * DAY + 1_800_000, status: 'completed' as const, owner_id: mia.userId, team_id: null, deal_id: null,
        account_id: null, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0,
        transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
      });
      const person = (meetingId: string, id: number, name: string, email: string | null, company: string | null) =>
        ({ org_id: orgId, meeting_id: meetingId, id, email, name, user_id: null, side: 'buyer' as const, company, title: null, talk_time_ms: 0 });
      // Participants first, then their meeting; a meeting, then its participants in one statement.
      await db.insertInto('participants').values([person('mtg-st-1', 1, 'Ivo Okapi', 'ivo@okapi.example', 'Okapi'), person('mtg-st-1', 2, 'Una Null', null, null)]).execute();
      await assertKept(s.store, 'participants without their meeting');
      await db.insertInto('meetings').values([meeting('mtg-st-1', 'Walrus workshop'), meeting('mtg-st-2', 'Narwhal sync')]).execute();
      await db.insertInto('participants').values([person('mtg-st-2', 1, 'Ana Bell', 'ana@bell.example', 'Bell'), person('mtg-st-2', 2, 'Bo Chen', 'bo@chen.example', null)]).execute();
      await assertKept(s.store, 'inserts');
      await db.updateTable('meetings').set({ title: 'Walrus summit' }).where('org_id', '=', orgId).where('id', '=', 'mtg-st-1').execute();
      await db.updateTable('meetings').set({ status: 'completed' }).where('org_id', '=', orgId).execute();
      await db.updateTable('participants').set({ name: 'Ivo Okapi-Smith', company: null }).where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-st-1').where('id', '=', 1).execute();
      await assertKept(s.store, 'updates');
      // A participant moved to the other meeting leaves the first one's text.
      await db.updateTable('participants').set({ meeting_id: 'mtg-st-2', id: 3 }).where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-st-1').where('id', '=', 2).execute();
      await assertKept(s.store, 'a move');
      await db.deleteFrom('participants').where('org_id', '=', orgId).where('meeting_id', '=', 'mtg-st-2').where('id', '=', 1).execute();
      await db.deleteFrom('meetings').where('org_id', '=', orgId).where('id', '=', 'mtg-st-1').execute();
      await assertKept(s.store, 'deletes');
      // An import's upserts, twice: new rows, then changed ones.
      for (const [title, name] of [['Quarterly Yak review', 'Quentin Quasar'], ['Quarterly Yak retro', 'Quentin Quasar-Ruiz']]) {
        writeFileSync(join(dir, 'meetings.ndjson'), ndjson([{ id: 'mtg-st-import', title, start: new Date(ANCHOR - 3 * DAY).toISOString(), end: new Date(ANCHOR - 3 * DAY + 3_600_000).toISOString(), status: 'completed', owner_email: EMAILS.mia, meeting_type: 'external' }]));
        writeFileSync(join(dir, 'participants.ndjson'), ndjson([{ meeting_id: 'mtg-st-import', id: 1, side: 'buyer', talk_time_ms: 0, name, email: 'quentin@zorgcorp.example', company: 'Zorgcorp' }]));
        const reports = await importDirectory(s.store, orgId, dir);
        assert.deepEqual(reports.filter((r) => r.status === 'rejected'), []);
        await assertKept(s.store, `import: ${title}`);
      }
      const ada = await s.principal(EMAILS.ada);
      const found = async (q: string) => (await listMeetings(db, ada, { from: ANCHOR - 30 * DAY, to: ANCHOR, q }, 'desc', null, 25, 500)).rows.map((r) => r.id);
      assert.deepEqual(await found('yak retro'), ['mtg-st-import']);
      assert.deepEqual(await found('quasar-ruiz'), ['mtg-st-import']);
      assert.deepEqual(await found('yak review'), []);
      assert.deepEqual(await found('okapi'), []);
      // Text across two fields is no match, with the separator or without.
      assert.deepEqual(await found(`retro${FIELD_SEPARATOR}quentin`), []);
      assert.deepEqual(await found('retroquentin'), []);
    });
  });

  if (dialect === 'postgres') {
    describe("each meeting's searchable text under writers at once (postgres)", () => {
      let s: Seeded;
      before(async () => (s = await seededStore(dialect, 30)));
      after(() => s.cleanup());

      it('keeps a new title written while a participant of the meeting is deleted or renamed, either way round', async () => {
        const orgId = (await s.principal(EMAILS.ada)).orgId;
        for (const [first, second] of [['title', 'participant'], ['participant', 'title']] as const) {
          const m = await s.store.db.selectFrom('participants').select(['meeting_id', 'id']).where('org_id', '=', orgId).orderBy('meeting_id', first === 'title' ? 'asc' : 'desc').executeTakeFirstOrThrow();
          const write = (what: 'title' | 'participant') =>
            what === 'title'
              ? sql`update meetings set title = ${`Renamed at once ${first}`} where org_id = ${orgId} and id = ${m.meeting_id}`
              : sql`update participants set name = ${`Someone else ${first}`} where org_id = ${orgId} and meeting_id = ${m.meeting_id} and id = ${m.id}`;
          // Two connections, each in a transaction: the second waits for the first's lock on the meeting's text.
          await s.store.db.connection().execute(async (a) => {
            await s.store.db.connection().execute(async (b) => {
              await sql`begin`.execute(a);
              await write(first).execute(a);
              await sql`begin`.execute(b);
              const waiting = write(second).execute(b);
              await new Promise((resolve) => setTimeout(resolve, 200));
              await sql`commit`.execute(a);
              await waiting;
              await sql`commit`.execute(b);
            });
          });
          await assertKept(s.store, `${first} first, then ${second}`);
        }
      });

      it('follows a truncated participants table', async () => {
        await sql`truncate participants`.execute(s.store.db);
        await assertKept(s.store, 'truncate');
      });
    });
  }

  describe(`the upgrade to 0020 fills each meeting's text (${dialect})`, () => {
    it('writes one text per meeting of the rows already there', async () => {
      const database = await createTestDatabase(dialect);
      const store = openStore(database.config);
      try {
        await migrateTo(store, '0019-deal-status-lookup');
        await seedDemo(store, { meetings: 30, anchor: ANCHOR, documents: 0 });
        await migrateToLatest(store);
        const { stored } = await texts(store);
        assert.ok(stored.size >= 30, `${stored.size} texts`);
        await assertKept(store, 'after the upgrade');
        await migrateTo(store, '0019-deal-status-lookup');
        await store.db.updateTable('meetings').set({ title: 'Renamed while 0020 was down' }).execute();
        await migrateToLatest(store);
        await assertKept(store, 'down and up again');
      } finally {
        await store.close();
        await database.drop();
      }
    });
  });
}
