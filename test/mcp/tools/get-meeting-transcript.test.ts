import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';

type Seg = { i: number; start_s: number; speaker: string; side: string; text: string; match?: boolean };
type Out = { segments: Seg[]; speakers: { name: string; side: string; talk_time_s: number }[]; total_segments: number; truncated: boolean; next_cursor: string | null; matched_segments: number | null; est_tokens_total: number };
type List = { meetings: { meeting_id: string; title: string; duration_min: number }[] };

for (const dialect of dialectsUnderTest()) {
  describe(`get_meeting_transcript (${dialect})`, () => {
    let s: Seeded;
    let twoHour: string;
    before(async () => {
      s = await seededStore(dialect);
      const list = ok<List>('list_meetings', await s.call(EMAILS.mia, 'list_meetings', { q: '2 hours' }));
      twoHour = list.meetings.find((m) => m.duration_min === 120)!.meeting_id;
    });
    after(() => s.cleanup());

    it('reads a two-hour transcript completely by following next_cursor, no segment missing or repeated', async () => {
      const seen: number[] = [];
      let cursor: string | null | undefined;
      let total = 0;
      let pages = 0;
      do {
        const result = await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: twoHour, ...(cursor ? { cursor } : {}) });
        const out = ok<Out>('get_meeting_transcript', result);
        const text = result.content[0]!.type === 'text' ? result.content[0]!.text : '';
        assert.ok(text.length <= 24_000 + 1_000, 'a page stays within max_chars');
        assert.match(text, /^\[\d\d:\d\d:\d\d\] .+ \((seller|buyer|unknown)\): /m);
        total = out.total_segments;
        seen.push(...out.segments.map((x) => x.i));
        assert.equal(out.truncated, out.next_cursor !== null);
        cursor = out.next_cursor;
        pages += 1;
      } while (cursor);
      assert.ok(pages > 1, 'a two-hour call takes more than one page');
      assert.ok(total > 700);
      assert.deepEqual(seen, Array.from({ length: total }, (_, i) => i));
    });

    it('lists the speakers as stored, by id: name, email, side, whether resolved, talk time', async () => {
      const out = ok<Out>('get_meeting_transcript', await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: twoHour, max_chars: 1000 }));
      const stored = await s.store.db.selectFrom('participants').selectAll().where('meeting_id', '=', twoHour).orderBy('id').execute();
      assert.ok(stored.length > 2 && stored.some((p) => p.email === null || p.user_id !== null), 'the roster has resolved and unresolved people');
      assert.deepEqual(
        out.speakers,
        stored.map((p) => ({ label: p.name, name: p.name, email: p.email, side: p.side, resolved: p.user_id !== null || p.email !== null, talk_time_s: Math.round(Number(p.talk_time_ms) / 1000) })),
      );
    });

    it('filters by side, time window and text with context', async () => {
      const buyer = ok<Out>('get_meeting_transcript', await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: twoHour, side: 'buyer', max_chars: 3000 }));
      assert.ok(buyer.segments.length > 0 && buyer.segments.every((x) => x.side === 'buyer'));
      const window = ok<Out>('get_meeting_transcript', await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: twoHour, start_time: '00:10:00', end_time: 900 }));
      assert.ok(window.segments.every((x) => x.start_s >= 600 && x.start_s < 900));
      const q = ok<Out>('get_meeting_transcript', await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: twoHour, q: 'salesforce', context_segments: 1 }));
      assert.ok((q.matched_segments ?? 0) > 0);
      for (const x of q.segments.filter((y) => y.match)) assert.match(x.text.toLowerCase(), /salesforce/);
      assert.ok(q.segments.some((y) => y.match === false), 'context segments are included');
    });

    it('answers no_transcript with the reason for a meeting without one', async () => {
      const list = ok<List>('list_meetings', await s.call(EMAILS.mia, 'list_meetings', { range: 'next_7_days' }));
      const result = await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: list.meetings[0]!.meeting_id });
      assert.equal(errorCode(result), 'no_transcript');
      assert.match(result.content[0]!.type === 'text' ? result.content[0]!.text : '', /get_meeting/);
    });

    it('refuses unknown speakers with the roster', async () => {
      const result = await s.call(EMAILS.mia, 'get_meeting_transcript', { meeting_id: twoHour, speakers: ['Nobody Here'] });
      assert.equal(errorCode(result), 'invalid_argument');
    });
  });
}
