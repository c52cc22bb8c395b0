import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';

type Result = { meeting: { meeting_id: string }; status: string; properties: { key: string; score: number | null; max_score: number | null; evidence?: { quote: string; speaker: string; start_s: number }[] }[]; total_score: number | null; max_total_score: number | null; percent: number | null };
type Out = { template: { template_id: string }; results: Result[] };
type Agents = { agents: { template_id: string; name: string }[] };
type Meetings = { meetings: { meeting_id: string; start: string; has_transcript: boolean; deal_id: string | null; meeting_type: string; status: string }[] };

for (const dialect of dialectsUnderTest()) {
  describe(`agent_results (${dialect})`, () => {
    let s: Seeded;
    let scorecard: string;
    let meddpicc: string;
    let meetings: Meetings['meetings'];
    before(async () => {
      s = await seededStore(dialect);
      const agents = ok<Agents>('list_agents', await s.call(EMAILS.ada, 'list_agents')).agents;
      scorecard = agents.find((a) => a.name === 'Call Scorecard')!.template_id;
      meddpicc = agents.find((a) => a.name === 'MEDDPICC Qualification')!.template_id;
      meetings = ok<Meetings>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { range: 'last_quarter', meeting_type: 'external', status: 'completed', limit: 100 })).meetings;
    });
    after(() => s.cleanup());

    it('returns scored properties with evidence and a server-computed total for a meeting', async () => {
      // The first recorded meeting whose scorecard ran (the seed also keeps some that failed).
      let r: Out['results'][number] | undefined;
      for (const m of meetings.filter((x) => x.has_transcript)) {
        const candidate = ok<Out>('agent_results', await s.call(EMAILS.ada, 'agent_results', { template_id: scorecard, meeting_id: m.meeting_id })).results[0]!;
        assert.ok(['ok', 'error'].includes(candidate.status));
        if (candidate.status === 'ok') {
          r = candidate;
          break;
        }
      }
      assert.ok(r, 'some recorded meeting has a scorecard that ran');
      assert.equal(r.properties.length, 5);
      const total = r.properties.reduce((sum, p) => sum + (p.score ?? 0), 0);
      assert.equal(r.total_score, total);
      assert.equal(r.max_total_score, 25);
      assert.equal(r.percent, Math.round((total / 25) * 1000) / 10);
      assert.ok(r.properties.some((p) => (p.evidence ?? []).length > 0));
    });

    it('reports no_transcript per meeting instead of failing the call, and omits evidence on request', async () => {
      const without = meetings.find((x) => !x.has_transcript);
      const withT = meetings.filter((x) => x.has_transcript).slice(0, 3);
      assert.ok(without, 'the demo data has a meeting without a transcript');
      const ids = [...withT.map((x) => x.meeting_id), without.meeting_id];
      const out = ok<Out>('agent_results', await s.call(EMAILS.ada, 'agent_results', { template_id: scorecard, meeting_ids: ids, include_evidence: false }));
      assert.deepEqual(out.results.map((r) => r.meeting.meeting_id), ids);
      assert.equal(out.results.at(-1)!.status, 'no_transcript');
      assert.ok(out.results.some((r) => r.properties.length > 0), 'some result has properties to check');
      for (const r of out.results) for (const p of r.properties) assert.equal(p.evidence, undefined);
    });

    it('reads a deal\'s latest meetings with deal_id + last_n_meetings', async () => {
      const dealId = meetings.find((x) => x.deal_id)!.deal_id!;
      const out = ok<Out>('agent_results', await s.call(EMAILS.ada, 'agent_results', { template_id: scorecard, deal_id: dealId, last_n_meetings: 2 }));
      assert.ok(out.results.length >= 1 && out.results.length <= 2);
    });

    it('points deal-scope agents to get_qualification_results and needs exactly one target', async () => {
      const r = await s.call(EMAILS.ada, 'agent_results', { template_id: meddpicc, meeting_id: meetings[0]!.meeting_id });
      assert.equal(errorCode(r), 'invalid_argument');
      assert.match(r.content[0]!.type === 'text' ? r.content[0]!.text : '', /get_qualification_results/);
      assert.equal(errorCode(await s.call(EMAILS.ada, 'agent_results', { template_id: scorecard })), 'invalid_argument');
      assert.equal(errorCode(await s.call(EMAILS.ada, 'agent_results', { template_id: 'agt_nope', meeting_id: meetings[0]!.meeting_id })), 'not_found');
    });

    it('reads exactly last_n_meetings completed meetings of a deal when canceled ones come between them', async () => {
      const year = { start: '2025-11-19', end: '2026-11-18', status: 'completed', limit: 100 };
      const all = ok<Meetings>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { ...year, meeting_type: 'external' })).meetings;
      const dealId = all.map((m) => m.deal_id).find((id) => id && all.filter((m) => m.deal_id === id).length >= 2)!;
      assert.ok(dealId, 'some deal has two completed meetings');
      const [latest, second] = ok<Meetings>('list_meetings', await s.call(EMAILS.ada, 'list_meetings', { ...year, deal_id: dealId })).meetings;
      // 19 canceled meetings between the deal's two latest completed ones: its 20 latest past
      // meetings then hold a single completed one.
      const row = await s.store.db.selectFrom('meetings').selectAll().where('id', '=', latest!.meeting_id).executeTakeFirstOrThrow();
      const from = Date.parse(second!.start);
      const gap = Date.parse(latest!.start) - from;
      for (let i = 1; i <= 19; i++) {
        const startAt = from + Math.floor((gap * i) / 20);
        await s.store.db
          .insertInto('meetings')
          .values({ ...row, id: `${row.id}_canceled_${i}`, title: 'Canceled follow-up', start_at: startAt, end_at: startAt + 1_800_000, status: 'canceled', summary_md: null, key_points: '[]', next_steps: '[]', has_transcript: 0, transcript_reason: 'canceled', segment_count: 0, transcript_chars: 0 })
          .execute();
      }
      const out = ok<Out>('agent_results', await s.call(EMAILS.ada, 'agent_results', { template_id: scorecard, deal_id: dealId, last_n_meetings: 2 }));
      assert.deepEqual(out.results.map((r) => r.meeting.meeting_id), [latest!.meeting_id, second!.meeting_id]);
    });
  });
}
