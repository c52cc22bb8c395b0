// Every role in both organizations, aimed at data it must not see: another organization's ids, a
// teammate's private report, a meeting the viewer did not attend, details restricted to
// participants. Nothing leaks: the answer is a not_found or forbidden tool error.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../mcp/support.ts';
import { tools } from '../../src/mcp/tools/index.ts';

type Ids = { meeting: string; transcriptMeeting: string; deal: string; report: string; agent: string; team: string; document: string | null };

async function idsOf(s: Seeded, domain: string): Promise<Ids> {
  const db = s.store.db;
  const org = (await db.selectFrom('org_domains').select('org_id').where('domain', '=', domain).executeTakeFirstOrThrow()).org_id;
  const one = async <T,>(q: Promise<T | undefined>) => {
    const v = await q;
    assert.ok(v);
    return v;
  };
  const doc = await db.selectFrom('documents').select('id').where('org_id', '=', org).executeTakeFirst();
  return {
    meeting: (await one(db.selectFrom('meetings').select('id').where('org_id', '=', org).executeTakeFirst())).id,
    transcriptMeeting: (await one(db.selectFrom('meetings').select('id').where('org_id', '=', org).where('has_transcript', '=', 1).executeTakeFirst())).id,
    deal: (await one(db.selectFrom('deals').select('id').where('org_id', '=', org).executeTakeFirst())).id,
    report: (await one(db.selectFrom('reports').select('id').where('org_id', '=', org).where('visibility', '=', 'org').executeTakeFirst())).id,
    agent: (await one(db.selectFrom('agents').select('id').where('org_id', '=', org).where('scope', '=', 'meeting').where('visibility', '=', 'org').executeTakeFirst())).id,
    team: (await one(db.selectFrom('teams').select('id').where('org_id', '=', org).executeTakeFirst())).id,
    document: doc?.id ?? null,
  };
}

/** The list and search tools, each called below by every role with the other organization's ids or filters. */
const LIST_TOOLS = ['list_meetings', 'list_reports', 'ask_documents', 'get_deals', 'list_agents'];

for (const dialect of dialectsUnderTest()) {
  describe(`access policy (${dialect})`, () => {
    let s: Seeded;
    let northwind: Ids;
    let globex: Ids;
    before(async () => {
      s = await seededStore(dialect);
      northwind = await idsOf(s, 'northwind.example');
      globex = await idsOf(s, 'globex.example');
    });
    after(() => s.cleanup());

    /** Every tool called with the other organization's ids. */
    function foreignCalls(x: Ids): [string, Record<string, unknown>][] {
      return [
        ['get_meeting', { meeting_id: x.meeting }],
        ['get_meeting_transcript', { meeting_id: x.transcriptMeeting }],
        ['agent_results', { template_id: x.agent, meeting_id: x.transcriptMeeting }],
        ['get_qualification_results', { deal_id: x.deal }],
        ['get_deal', { deal_id: x.deal }],
        ['read_report', { report_id: x.report }],
        ['get_teams', { team_id: x.team }],
      ];
    }

    for (const [email, other] of [
      [EMAILS.ada, 'globex'], [EMAILS.max, 'globex'], [EMAILS.mia, 'globex'], [EMAILS.vic, 'globex'],
      [EMAILS.gia, 'northwind'], [EMAILS.gus, 'northwind'],
    ] as const) {
      it(`${email} gets not_found for every id of ${other}`, async () => {
        const ids = other === 'globex' ? globex : northwind;
        for (const [tool, args] of foreignCalls(ids)) {
          const result = await s.call(email, tool, args);
          assert.equal(errorCode(result), 'not_found', `${tool} ${JSON.stringify(args)}`);
          const text = JSON.stringify(result.content);
          for (const id of Object.values(ids)) if (id && !Object.values(args).includes(id)) assert.ok(!text.includes(id), `${tool} leaked ${id}`);
        }
        // Lists and searches filtered by the foreign ids return nothing of the other org.
        const meetings = ok<{ meetings: unknown[] }>('list_meetings', await s.call(email, 'list_meetings', { deal_id: ids.deal, start: '2025-12-01', end: '2026-11-30' }));
        assert.equal(meetings.meetings.length, 0);
        const reports = ok<{ reports: unknown[] }>('list_reports', await s.call(email, 'list_reports', { team_id: ids.team }));
        assert.equal(reports.reports.length, 0);
        assert.ok(ids.document, 'the seed gives every organization documents');
        {
          const docs = ok<{ citations: unknown[]; documents_searched: number }>('ask_documents', await s.call(email, 'ask_documents', { question: 'discount approval', document_ids: [ids.document] }));
          assert.equal(docs.citations.length, 0);
          assert.equal(docs.documents_searched, 0);
        }
        // Unfiltered lists never carry the other organization's deals or agents.
        const deals = await s.call(email, 'get_deals', { status: 'all', limit: 100 });
        ok('get_deals', deals);
        const agents = await s.call(email, 'list_agents', { limit: 100 });
        ok('list_agents', agents);
        for (const id of [ids.deal, ids.agent]) assert.ok(id && !JSON.stringify([deals.content, agents.content]).includes(id), `a list leaked ${id}`);
      });
    }

    it('a viewer cannot open a meeting they did not attend, nor its transcript or agent results', async () => {
      const vic = await s.principal(EMAILS.vic);
      const notAttended = await s.store.db
        .selectFrom('meetings as m')
        .select(['m.id', 'm.deal_id'])
        .where('m.org_id', '=', vic.orgId)
        .where('m.has_transcript', '=', 1)
        .where((eb) => eb.not(eb('m.id', 'in', eb.selectFrom('participants').select('meeting_id').where('org_id', '=', vic.orgId).where('email', '=', vic.email))))
        .executeTakeFirstOrThrow();
      assert.equal(errorCode(await s.call(EMAILS.vic, 'get_meeting', { meeting_id: notAttended.id })), 'not_found');
      assert.equal(errorCode(await s.call(EMAILS.vic, 'get_meeting_transcript', { meeting_id: notAttended.id })), 'not_found');
      assert.equal(errorCode(await s.call(EMAILS.vic, 'agent_results', { template_id: northwind.agent, meeting_id: notAttended.id })), 'not_found');
      const listed = ok<{ meetings: { meeting_id: string }[] }>('list_meetings', await s.call(EMAILS.vic, 'list_meetings', { range: 'last_quarter', limit: 100 }));
      assert.ok(!listed.meetings.some((m) => m.meeting_id === notAttended.id));
      const attended = await s.store.db.selectFrom('participants').select('meeting_id').where('org_id', '=', vic.orgId).where('email', '=', vic.email).execute();
      const attendedIds = new Set(attended.map((a) => a.meeting_id));
      assert.ok(listed.meetings.length > 0, 'the viewer attended meetings last quarter');
      assert.ok(listed.meetings.every((m) => attendedIds.has(m.meeting_id)));
    });

    it('a viewer sees only deals linked to meetings they attended', async () => {
      const vic = await s.principal(EMAILS.vic);
      const deals = ok<{ deals: { deal_id: string }[] }>('get_deals', await s.call(EMAILS.vic, 'get_deals', { status: 'all', limit: 100 }));
      assert.ok(deals.deals.length > 0);
      const linked = await s.store.db
        .selectFrom('meetings as m')
        .innerJoin('participants as p', (j) => j.onRef('p.org_id', '=', 'm.org_id').onRef('p.meeting_id', '=', 'm.id'))
        .select('m.deal_id')
        .where('m.org_id', '=', vic.orgId)
        .where('p.email', '=', vic.email)
        .execute();
      const allowed = new Set(linked.map((l) => l.deal_id));
      assert.ok(deals.deals.every((d) => allowed.has(d.deal_id)));
    });

    it('a teammate\'s private report is not found for the member, the manager and the admin', async () => {
      const mia = await s.principal(EMAILS.mia);
      const other = await s.store.db.selectFrom('reports').select(['id', 'owner_id']).where('org_id', '=', mia.orgId).where('visibility', '=', 'personal').where('owner_id', '!=', mia.userId).executeTakeFirstOrThrow();
      const mine = await s.store.db.selectFrom('reports').select('id').where('org_id', '=', mia.orgId).where('visibility', '=', 'personal').where('owner_id', '=', mia.userId).executeTakeFirstOrThrow();
      for (const email of [EMAILS.mia, EMAILS.max, EMAILS.ada, EMAILS.vic]) {
        assert.equal(errorCode(await s.call(email, 'read_report', { report_id: other.id })), 'not_found', email);
      }
      for (const email of [EMAILS.max, EMAILS.vic]) assert.equal(errorCode(await s.call(email, 'read_report', { report_id: mine.id })), 'not_found', email);
      ok('read_report', await s.call(EMAILS.mia, 'read_report', { report_id: mine.id }));
    });

    it('a member does not see meetings of colleagues they did not attend; their manager does', async () => {
      const mia = await s.principal(EMAILS.mia);
      const teammate = await s.store.db
        .selectFrom('meetings as m')
        .innerJoin('team_members as tm', (j) => j.onRef('tm.org_id', '=', 'm.org_id').onRef('tm.user_id', '=', 'm.owner_id'))
        .select('m.id')
        .where('m.org_id', '=', mia.orgId)
        .where('tm.team_id', 'in', mia.teamIds)
        .where('m.owner_id', '!=', mia.userId)
        .where((eb) => eb.not(eb('m.id', 'in', eb.selectFrom('participants').select('meeting_id').where('org_id', '=', mia.orgId).where('email', '=', mia.email))))
        .executeTakeFirstOrThrow();
      assert.equal(errorCode(await s.call(EMAILS.mia, 'get_meeting', { meeting_id: teammate.id })), 'not_found');
      ok('get_meeting', await s.call(EMAILS.max, 'get_meeting', { meeting_id: teammate.id }));
      ok('get_meeting', await s.call(EMAILS.ada, 'get_meeting', { meeting_id: teammate.id }));
    });

    it('where details are restricted to participants, a manager gets the meeting but forbidden for its transcript', async () => {
      const gia = await s.principal(EMAILS.gia);
      assert.equal(gia.restrictMeetingDetails, true);
      const gus = await s.principal(EMAILS.gus);
      const manager = await s.store.db
        .selectFrom('users as u')
        .innerJoin('team_members as tm', (j) => j.onRef('tm.org_id', '=', 'u.org_id').onRef('tm.user_id', '=', 'u.id'))
        .select('u.email')
        .where('u.org_id', '=', gus.orgId)
        .where('tm.team_id', 'in', gus.teamIds)
        .where('tm.is_manager', '=', 1)
        .executeTakeFirstOrThrow();
      const mgr = await s.principal(manager.email);
      const target = await s.store.db
        .selectFrom('meetings as m')
        .select('m.id')
        .where('m.org_id', '=', mgr.orgId)
        .where('m.has_transcript', '=', 1)
        .where('m.owner_id', 'in', (eb) => eb.selectFrom('team_members').select('user_id').where('org_id', '=', mgr.orgId).where('team_id', 'in', mgr.managedTeamIds.length ? mgr.managedTeamIds : ['-']))
        .where('m.owner_id', '!=', mgr.userId)
        .where((eb) => eb.not(eb('m.id', 'in', eb.selectFrom('participants').select('meeting_id').where('org_id', '=', mgr.orgId).where('email', '=', mgr.email))))
        .executeTakeFirstOrThrow();
      const meeting = ok<{ details_restricted: boolean; notes: unknown; transcript: { available: boolean } }>('get_meeting', await s.call(manager.email, 'get_meeting', { meeting_id: target.id }));
      assert.equal(meeting.details_restricted, true);
      assert.equal(meeting.notes, null);
      assert.equal(meeting.transcript.available, false);
      assert.equal(errorCode(await s.call(manager.email, 'get_meeting_transcript', { meeting_id: target.id })), 'forbidden');
      ok('get_meeting_transcript', await s.call(EMAILS.gia, 'get_meeting_transcript', { meeting_id: target.id, max_chars: 1000 }));
    });

    it('every tool refuses or empties out for foreign ids, whatever the role (no tool left out)', () => {
      const covered = new Set([...foreignCalls(globex).map(([tool]) => tool), ...LIST_TOOLS]);
      assert.deepEqual(tools.map((t) => t.name).filter((n) => !covered.has(n)), []);
    });
  });
}
