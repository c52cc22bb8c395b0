import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';

type Meeting = { meeting_id: string; start: string; owner: { email: string | null }; prospect_org: string | null; deal_id: string | null; meeting_type: string; status: string; has_transcript: boolean; external_participants: unknown[]; external_participant_count: number; url: string };
type Out = { meetings: Meeting[]; next_cursor: string | null; has_more: boolean; total: number | null; filters: { start: string; end: string; window: string }; scope: { user_email: string; role: string } };

for (const dialect of dialectsUnderTest()) {
  describe(`list_meetings (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect);
    });
    after(() => s.cleanup());

    it('lists the last 30 days by default, newest first, with the scope and window echoed', async () => {
      const out = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings'));
      assert.ok(out.meetings.length > 0);
      assert.equal(out.filters.window, 'default: the last 30 days');
      assert.equal(out.scope.user_email, EMAILS.ada);
      assert.equal(out.scope.role, 'admin');
      const starts = out.meetings.map((m) => Date.parse(m.start));
      assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
      for (const m of out.meetings) {
        assert.ok(Date.parse(m.start) >= Date.parse(out.filters.start) && Date.parse(m.start) < Date.parse(out.filters.end));
        assert.ok(m.url.startsWith('https://app.example.com/meetings/'));
        assert.ok(m.external_participants.length <= 8);
      }
    });

    it('shows each meeting\'s external participants as stored: every non-seller counted, the first 8 by id shown', async () => {
      const out = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { range: 'this_quarter', limit: 100 }));
      assert.ok(out.meetings.length > 20);
      let withPeople = 0;
      for (const m of out.meetings) {
        const stored = await s.store.db
          .selectFrom('participants')
          .select(['name', 'email', 'company', 'title', 'side'])
          .where('meeting_id', '=', m.meeting_id)
          .orderBy('id')
          .execute();
        const external = stored.filter((p) => p.side !== 'seller').map(({ side: _side, ...p }) => p);
        assert.equal(m.external_participant_count, external.length, m.meeting_id);
        assert.deepEqual(m.external_participants, external.slice(0, 8), m.meeting_id);
        if (external.length > 0 && stored.length > external.length) withPeople++;
      }
      assert.ok(withPeople > 0, 'some meeting has both sides, so the seller filter is exercised');
    });

    it('pages with a keyset cursor without gaps or repeats, and total matches', async () => {
      const args = { range: 'this_quarter', limit: 7 };
      const first = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', args));
      const seen: string[] = first.meetings.map((m) => m.meeting_id);
      let cursor = first.next_cursor;
      while (cursor) {
        const page = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { ...args, cursor }));
        assert.equal(page.total, null);
        seen.push(...page.meetings.map((m) => m.meeting_id));
        cursor = page.next_cursor;
      }
      assert.equal(new Set(seen).size, seen.length);
      assert.equal(seen.length, first.total);
    });

    it('filters by owner "me", meeting_type and has_transcript', async () => {
      const out = ok<Out>('list_meetings', await s.call(EMAILS.mia, 'list_meetings', { owner: 'me', range: 'last_30_days', meeting_type: 'external', has_transcript: true }));
      assert.ok(out.meetings.length > 0);
      for (const m of out.meetings) {
        assert.equal(m.owner.email, EMAILS.mia);
        assert.equal(m.meeting_type, 'external');
        assert.equal(m.has_transcript, true);
      }
    });

    it('filters by prospect_org and deal_id', async () => {
      const some = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { range: 'last_30_days', meeting_type: 'external' })).meetings[0]!;
      const byOrg = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { start: '2025-11-20', end: '2026-11-18', prospect_org: `https://www.${some.prospect_org}/` }));
      assert.ok(byOrg.meetings.length > 0 && byOrg.meetings.every((m) => m.prospect_org === some.prospect_org));
      const byDeal = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { start: '2025-11-20', end: '2026-11-18', deal_id: some.deal_id }));
      assert.ok(byDeal.meetings.some((m) => m.meeting_id === some.meeting_id));
      assert.ok(byDeal.meetings.every((m) => m.deal_id === some.deal_id));
    });

    it('refuses a window over 366 days, range with start, and a cursor from another query', async () => {
      assert.equal(errorCode(await s.call(EMAILS.ada, 'list_meetings', { start: '2024-01-01', end: '2026-01-01' })), 'invalid_argument');
      assert.equal(errorCode(await s.call(EMAILS.ada, 'list_meetings', { start: '2026-01-01', range: 'today' })), 'invalid_argument');
      const first = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { limit: 2 }));
      assert.ok(first.next_cursor);
      assert.equal(errorCode(await s.call(EMAILS.ada, 'list_meetings', { limit: 2, status: 'completed', cursor: first.next_cursor })), 'invalid_argument');
      assert.equal(errorCode(await s.call(EMAILS.max, 'list_meetings', { limit: 2, cursor: first.next_cursor })), 'invalid_argument');
      assert.equal(errorCode(await s.call(EMAILS.ada, 'list_meetings', { limit: 2, cursor: 'garbage' })), 'invalid_argument');
    });
  });

  describe(`list_meetings totals (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect, 1300);
    });
    after(() => s.cleanup());

    it('counts total up to 500 matches and says null (not cheap) above, on a page of any size', async () => {
      const year = { start: '2025-11-20', end: '2026-11-18' };
      const wide = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { ...year, limit: 5 }));
      assert.equal(wide.meetings.length, 5);
      assert.equal(wide.total, null, 'a year of the org has more than 500 meetings: no exact count is promised');
      const narrow = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { range: 'last_7_days', limit: 2 }));
      assert.ok(narrow.has_more);
      assert.ok(narrow.total !== null && narrow.total > 2 && narrow.total <= 500);
      const whole = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { range: 'last_7_days', limit: 100 }));
      assert.equal(whole.has_more, false);
      assert.equal(whole.total, whole.meetings.length);
      assert.equal(whole.total, narrow.total);
    });

    it('counts only the meetings the caller may see, whatever the role', async () => {
      const counts: number[] = [];
      for (const who of [EMAILS.max, EMAILS.mia, EMAILS.vic]) {
        const narrow = ok<Out>('list_meetings', await s.call(who, 'list_meetings', { range: 'last_30_days', limit: 2 }));
        const whole = ok<Out>('list_meetings', await s.call(who, 'list_meetings', { range: 'last_30_days', limit: 100 }));
        assert.equal(whole.has_more, false, `${who}: one page holds every visible meeting`);
        assert.equal(narrow.total, whole.meetings.length, `${who}: the total counts what the caller can list`);
        counts.push(whole.meetings.length);
      }
      const admin = ok<Out>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { range: 'last_30_days', limit: 2 }));
      assert.ok(counts.every((n) => n > 2 && (admin.total === null || n < admin.total)), `each role sees fewer than the admin: ${counts.join(', ')} < ${admin.total}`);
    });
  });
}
