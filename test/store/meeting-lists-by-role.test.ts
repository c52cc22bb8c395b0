// Meeting lists for every role (domain.md "Who sees what"), against an oracle computed from the raw
// tables: members' and viewers' lists are read as arms (own, attended: meeting-arms.ts), managers'
// and filtered lists by the policy's predicate, and every one must page through exactly the
// meetings the policy allows, in order, with the same capped total. Also the copy of each
// meeting's start on its participants (migration 0011), which the attended reads rely on.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { ANCHOR, EMAILS, type Seeded } from '../mcp/support.ts';
import type { Principal } from '../../src/access/principal.ts';
import { createUser } from '../../src/store/users.ts';
import { listMeetings, type MeetingFilters } from '../../src/store/sales/meetings.ts';
import type { KeysetOrder } from '../../src/store/sales/keyset.ts';
import { attends, meetingVisibleTo, seededWorld, type RawMeeting, type World } from './policy-oracle.ts';

const DAY = 86_400_000;

/** The policy and the filters, from the raw rows. */
function oracle(w: World, p: Principal, f: MeetingFilters, order: KeysetOrder): string[] {
  const visible = (m: RawMeeting) => meetingVisibleTo(w, p, m);
  const q = f.q?.toLowerCase();
  const matches = (m: RawMeeting) =>
    m.start_at >= f.from &&
    m.start_at < f.to &&
    (f.ownerId === undefined || m.owner_id === f.ownerId) &&
    (f.dealId === undefined || m.deal_id === f.dealId) &&
    (f.teamId === undefined || m.team_id === f.teamId) &&
    (f.accountIds === undefined || (m.account_id !== null && f.accountIds.includes(m.account_id))) &&
    (f.status === undefined || m.status === f.status) &&
    (f.meetingType === undefined || m.meeting_type === f.meetingType) &&
    (f.hasTranscript === undefined || m.has_transcript === (f.hasTranscript ? 1 : 0)) &&
    (f.participantEmails === undefined || (w.people.get(m.id) ?? []).some((x) => x.email !== null && f.participantEmails!.includes(x.email))) &&
    (q === undefined || m.title.toLowerCase().includes(q) || (w.people.get(m.id) ?? []).some((x) => [x.name, x.email, x.company].some((v) => v?.toLowerCase().includes(q))));
  const sign = order === 'asc' ? 1 : -1;
  return w.meetings
    .filter((m) => visible(m) && matches(m))
    .sort((a, b) => sign * (a.start_at - b.start_at || (a.id < b.id ? -1 : 1)))
    .map((m) => m.id);
}

async function pageThrough(s: Seeded, p: Principal, f: MeetingFilters, order: KeysetOrder, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let position: [number, string] | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const { rows } = await listMeetings(s.store.db, p, f, order, position, limit + 1);
    seen.push(...rows.slice(0, limit).map((r) => r.id));
    if (rows.length <= limit) return seen;
    const last = rows[limit - 1]!;
    position = [last.start_at, last.id];
  }
  throw new Error('did not finish paging');
}

/**
 * What the demo seed never makes: a member's meeting they do not attend (sellers attend their own),
 * a meeting where the viewer's email appears twice (an attended arm must not count it twice), a
 * meeting the viewer owns but did not attend (an import or a role change can make one: a viewer
 * sees only what they attended), and twelve meetings at one start, owned or attended by the member
 * and the viewer in turn, whose ids do not follow their insertion (each arm must order ties by id).
 */
async function addOddMeetings(s: Seeded, orgId: string, member: Principal, viewer: Principal): Promise<void> {
  const meeting = (id: string, startAt: number) => ({
    org_id: orgId, id, title: `Odd ${id}`, start_at: startAt, end_at: startAt + 1_800_000, status: 'completed' as const, owner_id: member.userId,
    team_id: null, deal_id: null, account_id: null, meeting_type: 'external' as const, language: 'en', summary_md: null, key_points: '[]', next_steps: '[]',
    has_transcript: 0, transcript_reason: 'not_recorded', segment_count: 0, transcript_chars: 0, created_at: ANCHOR,
  });
  const person = (meetingId: string, id: number, email: string) => ({ org_id: orgId, meeting_id: meetingId, id, email, name: `Person ${id}`, user_id: null, side: 'buyer' as const, company: null, title: null, talk_time_ms: 0 });
  const odd = Array.from({ length: 6 }, (_, i) => meeting(`mtg_odd_${i}`, ANCHOR - (3 + 11 * i) * DAY + i * 60_000));
  await s.store.db.insertInto('meetings').values(odd).execute();
  await s.store.db
    .insertInto('participants')
    .values([person('mtg_odd_0', 1, 'someone@buyer.example'), person('mtg_odd_1', 1, viewer.email), person('mtg_odd_1', 2, viewer.email), person('mtg_odd_2', 1, viewer.email), person('mtg_odd_2', 2, viewer.email)])
    .execute();
  await s.store.db.insertInto('meetings').values({ ...meeting('mtg_odd_viewer_owns', ANCHOR - 9 * DAY), owner_id: viewer.userId }).execute();
  const tied = Array.from({ length: 12 }, (_, i) => meeting(`mtg_tie_${String.fromCharCode(97 + ((i * 7) % 12))}`, ANCHOR - 5 * DAY));
  await s.store.db.insertInto('meetings').values(tied.map((m, i) => (i % 3 === 0 ? m : { ...m, owner_id: viewer.userId }))).execute();
  await s.store.db
    .insertInto('participants')
    .values(tied.flatMap((m, i) => [...(i % 2 ? [person(m.id, 1, member.email)] : []), ...(i % 3 === 1 ? [person(m.id, 2, viewer.email)] : [])]))
    .execute();
  // A manager who manages no team: read by arms, as a member is. Owns one meeting, attends two.
  const lone = await createUser(s.store.db, { orgId, email: 'lone.manager@northwind.example', name: 'Lone Manager', role: 'manager' });
  await s.store.db.updateTable('meetings').set({ owner_id: lone.id }).where('org_id', '=', orgId).where('id', '=', 'mtg_odd_3').execute();
  await s.store.db.insertInto('participants').values([person('mtg_odd_4', 1, lone.email), person('mtg_odd_5', 1, lone.email)]).execute();
}

for (const dialect of dialectsUnderTest()) {
  describe(`meeting lists by role (${dialect})`, () => {
    let s: Seeded;
    let world: World;
    let principals: Principal[];
    before(async () => {
      ({ s, world, principals } = await seededWorld(dialect, (s, c) => addOddMeetings(s, c.ada.orgId, c.mia, c.vic)));
    });
    after(() => s.cleanup());

    const whole = { from: ANCHOR - 400 * DAY, to: ANCHOR + 60 * DAY };
    const filters: [string, MeetingFilters][] = [
      ['no filter', whole],
      ['the last 30 days', { from: ANCHOR - 30 * DAY, to: ANCHOR }],
      ['completed, external, with a transcript', { ...whole, status: 'completed', meetingType: 'external', hasTranscript: true }],
      ['internal', { ...whole, meetingType: 'internal' }],
      ['q', { ...whole, q: 'an' }],
      // Three characters or more: for an admin, a member or a manager, candidates from the trigram
      // index when the text is rare in the window (meeting-text.ts), then the LIKE; viewers and
      // common texts walk.
      ['q in titles, with LIKE wildcards', { ...whole, q: 'MTG_odd_' }],
      ["q in a participant's name", { ...whole, q: 'unknown Caller' }],
      ["q in a participant's email", { ...whole, q: '@buyer.exam' }],
      ["q in a few participants' names", { ...whole, q: 'PERSON 2' }],
    ];

    it('covers every role, and members and viewers who both own and attend', () => {
      const roles = new Set(principals.map((p) => p.role));
      for (const role of ['admin', 'manager', 'member', 'viewer'] as const) assert.ok(roles.has(role), role);
      // Arms overlap: a member attends meetings they own, so the page merges duplicates.
      const mia = principals.find((p) => p.email === EMAILS.mia)!;
      assert.ok(world.meetings.some((m) => m.owner_id === mia.userId && attends(world, m.id, mia.email) > 0));
      assert.ok(world.meetings.some((m) => m.owner_id === mia.userId && attends(world, m.id, mia.email) === 0));
      assert.ok(world.meetings.some((m) => attends(world, m.id, EMAILS.vic) > 1));
      // A viewer's own meeting they did not attend, and ties at one start in both arms.
      const vic = principals.find((p) => p.email === EMAILS.vic)!;
      assert.ok(world.meetings.some((m) => m.owner_id === vic.userId && attends(world, m.id, vic.email) === 0));
      const tiedAt = ANCHOR - 5 * DAY;
      for (const p of [mia, vic]) assert.ok(oracle(world, p, { from: tiedAt, to: tiedAt + 1 }, 'desc').length >= 4, p.email);
      assert.ok(principals.some((p) => p.role === 'manager' && p.managedTeamIds.length === 0 && oracle(world, p, whole, 'desc').length === 3));
      assert.ok(principals.some((p) => p.role === 'manager' && p.managedTeamIds.length > 0));
    });

    it("pages every user's meetings with each filter that has its own index, as the policy allows", async () => {
      // A meeting the viewer attended, owned by a seller, with a deal, an account and a team.
      const vic = principals.find((p) => p.email === EMAILS.vic)!;
      const m = world.meetings.find((x) => x.deal_id && attends(world, x.id, vic.email) > 0)!;
      const row = await s.store.db.selectFrom('meetings').select(['team_id', 'account_id']).where('org_id', '=', vic.orgId).where('id', '=', m.id).executeTakeFirstOrThrow();
      assert.ok(row.team_id && row.account_id);
      const indexed: MeetingFilters[] = [
        { ...whole, ownerId: m.owner_id },
        { ...whole, dealId: m.deal_id! },
        { ...whole, teamId: row.team_id },
        { ...whole, accountIds: [row.account_id] },
      ];
      for (const f of indexed) {
        let nonEmpty = 0;
        for (const p of principals) {
          const want = oracle(world, p, f, 'desc');
          if (want.length) nonEmpty += 1;
          assert.deepEqual(await pageThrough(s, p, f, 'desc', 3), want, `${p.email} ${JSON.stringify(f)}`);
        }
        assert.ok(nonEmpty >= 3, JSON.stringify(f));
      }
    });

    it("keeps to the window's edges in each arm", async () => {
      for (const email of [EMAILS.max, EMAILS.mia, EMAILS.vic]) {
        const p = await s.principal(email);
        const mine = oracle(world, p, whole, 'asc').map((id) => world.meetings.find((m) => m.id === id)!.start_at);
        assert.ok(mine.length > 12, email);
        // `from` on a visible meeting's start (kept), `to` on another's (left out).
        const edges = { from: mine[2]!, to: mine[mine.length - 3]! };
        for (const order of ['desc', 'asc'] as const) assert.deepEqual(await pageThrough(s, p, edges, order, 4), oracle(world, p, edges, order), `${email} ${order}`);
      }
    });

    for (const [label, f] of filters) {
      for (const order of ['desc', 'asc'] as const) {
        it(`pages every user's meetings, ${label}, ${order}, as the policy allows`, async () => {
          let nonEmpty = 0;
          for (const p of principals) {
            const want = oracle(world, p, f, order);
            if (want.length > 0) nonEmpty += 1;
            assert.deepEqual(await pageThrough(s, p, f, order, 7), want, `${p.email} (${p.role})`);
          }
          assert.ok(nonEmpty >= 3, 'the case lists meetings for several users');
        });
      }
    }

    it('pages one by one for each role, through ties and arm boundaries', async () => {
      for (const email of [EMAILS.ada, EMAILS.max, EMAILS.mia, EMAILS.vic]) {
        const p = await s.principal(email);
        for (const order of ['desc', 'asc'] as const) assert.deepEqual(await pageThrough(s, p, whole, order, 1), oracle(world, p, whole, order), `${email} ${order}`);
      }
    });

    it('filters by a participant email within every role', async () => {
      const buyer = [...world.people.values()].flat().find((x) => x.email && !x.email.endsWith('@northwind.example'))!.email!;
      const mia = await s.principal(EMAILS.mia);
      for (const p of principals) {
        for (const emails of [[buyer], [mia.email, buyer]]) {
          const f = { ...whole, participantEmails: emails };
          assert.deepEqual(await pageThrough(s, p, f, 'desc', 5), oracle(world, p, f, 'desc'), `${p.email} ${emails.join(',')}`);
        }
      }
    });

    it('counts the first page up to the cap, says nothing beyond it, and lists the first meetings the policy gives', async () => {
      for (const p of principals) {
        for (const [label, f] of filters) {
          for (const order of ['desc', 'asc'] as const) {
            const want = oracle(world, p, f, order);
            for (const cap of [3, 500]) {
              // The page beside its count too: with a `q`, PostgreSQL reads both from one walk.
              const { rows, total } = await listMeetings(s.store.db, p, f, order, null, 3, cap);
              assert.equal(total, want.length > cap ? null : want.length, `${p.email} ${label} ${order} cap ${cap}`);
              assert.deepEqual(rows.map((r) => r.id), want.slice(0, 3), `${p.email} ${label} ${order} cap ${cap}`);
            }
          }
        }
      }
    });

    it("copies each meeting's start to its participants, and follows a meeting that moves", async () => {
      const db = s.store.db;
      const vic = await s.principal(EMAILS.vic);
      const stale = await db
        .selectFrom('participants as p')
        .innerJoin('meetings as m', (j) => j.onRef('m.org_id', '=', 'p.org_id').onRef('m.id', '=', 'p.meeting_id'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('p.start_at', 'is', null), eb('p.start_at', '!=', eb.ref('m.start_at'))]))
        .executeTakeFirstOrThrow();
      assert.equal(Number(stale.n), 0, 'the seed wrote participants before their meetings; every one has its start');

      const seen = world.meetings.find((m) => (world.people.get(m.id) ?? []).some((x) => x.email === vic.email))!;
      const moved = ANCHOR + 45 * DAY + 1234;
      const later = { from: ANCHOR + 45 * DAY, to: ANCHOR + 46 * DAY };
      try {
        await db.updateTable('meetings').set({ start_at: moved }).where('org_id', '=', vic.orgId).where('id', '=', seen.id).execute();
        assert.deepEqual((await listMeetings(db, vic, later, 'desc', null, 10)).rows.map((r) => r.id), [seen.id]);
        const before = { from: seen.start_at, to: seen.start_at + 1 };
        assert.ok(!(await listMeetings(db, vic, before, 'desc', null, 10)).rows.some((r) => r.id === seen.id));

        // A participant written after its meeting takes its start; one whose meeting is missing has none.
        const orgId = vic.orgId;
        const person = { org_id: orgId, email: 'late@buyer.example', name: 'Late Joiner', user_id: null, side: 'buyer' as const, company: null, title: null, talk_time_ms: 0 };
        await db.insertInto('participants').values([{ ...person, meeting_id: seen.id, id: 9001 }, { ...person, meeting_id: 'mtg_missing', id: 1 }]).execute();
        const late = await db.selectFrom('participants').select(['meeting_id', 'start_at']).where('org_id', '=', orgId).where('email', '=', person.email).orderBy('meeting_id').execute();
        assert.deepEqual(late.map((r) => [r.meeting_id, r.start_at === null ? null : Number(r.start_at)]), [[seen.id, moved], ['mtg_missing', null]].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)));
        const ada = await s.principal(EMAILS.ada);
        assert.deepEqual((await listMeetings(db, ada, { ...later, participantEmails: [person.email] }, 'desc', null, 10)).rows.map((r) => r.id), [seen.id]);

        // A participant moved to another meeting takes that meeting's start (both dialects).
        const other = world.meetings.find((m) => m.id !== seen.id && m.start_at < ANCHOR - 10 * DAY)!;
        await db.updateTable('participants').set({ meeting_id: other.id }).where('org_id', '=', orgId).where('meeting_id', '=', seen.id).where('id', '=', 9001).execute();
        const movedRow = await db.selectFrom('participants').select('start_at').where('org_id', '=', orgId).where('meeting_id', '=', other.id).where('id', '=', 9001).executeTakeFirstOrThrow();
        assert.equal(Number(movedRow.start_at), other.start_at);
        assert.deepEqual((await listMeetings(db, ada, { ...whole, participantEmails: [person.email] }, 'desc', null, 10)).rows.map((r) => r.id), [other.id]);
      } finally {
        await db.deleteFrom('participants').where('org_id', '=', vic.orgId).where('email', '=', 'late@buyer.example').execute();
        await db.updateTable('meetings').set({ start_at: seen.start_at }).where('org_id', '=', vic.orgId).where('id', '=', seen.id).execute();
      }
      assert.equal(Number((await db.selectFrom('participants').select('start_at').where('org_id', '=', vic.orgId).where('meeting_id', '=', seen.id).executeTakeFirstOrThrow()).start_at), seen.start_at);
    });
  });
}
