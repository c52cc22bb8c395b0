import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';

type Person = { name: string; side: string; talk_share_pct: number | null };
type Out = {
  meeting: { meeting_id: string; title: string; owner: { name: string; email: string | null }; prospect_org: string | null; account_name: string | null };
  participants: { sellers: Person[]; buyers: Person[] } | null;
  notes: { summary_md: string; key_points: string[] } | null;
  next_steps: unknown[] | null;
  previous_meeting: { meeting_id: string; start: string } | null;
  transcript: { available: boolean; reason_if_not: string | null; segment_count: number; est_tokens: number };
  agent_results_available: { template_id: string; name: string }[] | null;
  details_restricted: boolean;
};
type List = { meetings: { meeting_id: string; has_transcript: boolean; status: string; start: string; prospect_org: string | null }[] };

for (const dialect of dialectsUnderTest()) {
  describe(`get_meeting (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect);
    });
    after(() => s.cleanup());

    it('returns participants by side with talk share, notes, transcript size and agent results', async () => {
      const list = ok<List>('list_meetings', await s.call(EMAILS.mia, 'list_meetings', { owner: 'me', has_transcript: true, meeting_type: 'external' }));
      const id = list.meetings[0]!.meeting_id;
      const out = ok<Out>('get_meeting', await s.call(EMAILS.mia, 'get_meeting', { meeting_id: id }));
      assert.equal(out.meeting.meeting_id, id);
      assert.deepEqual(out.meeting.owner, { name: 'Mia Member', email: EMAILS.mia });
      assert.ok(out.meeting.prospect_org && out.meeting.prospect_org === list.meetings[0]!.prospect_org);
      assert.ok(out.meeting.account_name);
      assert.ok(out.participants!.sellers.some((p) => p.name === 'Mia Member'));
      assert.ok(out.participants!.buyers.length > 0);
      const shares = [...out.participants!.sellers, ...out.participants!.buyers].reduce((sum, p) => sum + (p.talk_share_pct ?? 0), 0);
      assert.ok(Math.abs(shares - 100) < 1);
      assert.ok(out.notes && out.notes.summary_md.length > 0);
      assert.equal(out.transcript.available, true);
      assert.ok(out.transcript.segment_count > 0 && out.transcript.est_tokens > 0);
      assert.ok(out.agent_results_available!.some((a) => a.name === 'Call Scorecard'));
      assert.equal(out.previous_meeting, null, 'previous meeting notes only when asked');
    });

    it('adds the previous meeting with the same account when asked (alias include_previous_meeting_notes)', async () => {
      const list = ok<List>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { range: 'last_30_days', status: 'completed', meeting_type: 'external', limit: 100 }));
      let found = false;
      for (const m of list.meetings) {
        const out = ok<Out>('get_meeting', await s.call(EMAILS.ada, 'get_meeting', { meeting_id: m.meeting_id, include_previous_meeting_notes: true }));
        if (out.previous_meeting) {
          assert.ok(Date.parse(out.previous_meeting.start) < Date.parse(m.start));
          found = true;
          break;
        }
      }
      assert.ok(found, 'some meeting has an earlier meeting with the same account');
    });

    it('says why there is no transcript for a scheduled meeting', async () => {
      const list = ok<List>('list_meetings', await s.call(EMAILS.mia, 'list_meetings', { range: 'next_7_days' }));
      const out = ok<Out>('get_meeting', await s.call(EMAILS.mia, 'get_meeting', { meeting_id: list.meetings[0]!.meeting_id, include: ['participants'] }));
      assert.equal(out.transcript.available, false);
      assert.match(out.transcript.reason_if_not!, /not happened yet/);
      assert.equal(out.notes, null);
    });

    it('answers not_found for an unknown id', async () => {
      assert.equal(errorCode(await s.call(EMAILS.ada, 'get_meeting', { meeting_id: 'mtg_doesnotexist' })), 'not_found');
    });
  });
}
