import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';

type Out = {
  me: { email: string; role: string; teams: { team_id: string; name: string; is_manager: boolean }[] };
  teams: { team_id: string; name: string; parent_team_id: string | null; managers: { email: string }[]; member_count: number; members: { email: string; is_manager: boolean }[] | null }[];
};

for (const dialect of dialectsUnderTest()) {
  describe(`get_teams (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect);
    });
    after(() => s.cleanup());

    it('tells the caller who they are and lists all teams with managers and members', async () => {
      const out = ok<Out>('get_teams', await s.call(EMAILS.max, 'get_teams'));
      assert.equal(out.me.email, EMAILS.max);
      assert.equal(out.me.role, 'manager');
      assert.ok(out.me.teams.some((t) => t.name === 'Enterprise East' && t.is_manager));
      assert.equal(out.teams.length, 5);
      const ee = out.teams.find((t) => t.name === 'Enterprise East')!;
      assert.ok(ee.managers.some((m) => m.email === EMAILS.max));
      assert.ok(ee.members!.some((m) => m.email === EMAILS.mia));
      assert.equal(ee.members!.length, ee.member_count);
      assert.ok(out.teams.some((t) => t.parent_team_id === ee.team_id), 'a sub-team');
    });

    it('limits viewers to their own teams and supports only_mine, team_id and include_members', async () => {
      const vic = ok<Out>('get_teams', await s.call(EMAILS.vic, 'get_teams'));
      assert.deepEqual(vic.teams.map((t) => t.name), ['Enterprise East']);
      const mine = ok<Out>('get_teams', await s.call(EMAILS.ada, 'get_teams', { only_mine: true }));
      assert.equal(mine.teams.length, 0);
      const one = ok<Out>('get_teams', await s.call(EMAILS.ada, 'get_teams', { team_id: vic.teams[0]!.team_id, include_members: false }));
      assert.equal(one.teams.length, 1);
      assert.equal(one.teams[0]!.members, null);
      assert.equal(errorCode(await s.call(EMAILS.ada, 'get_teams', { team_id: 'team_nope' })), 'not_found');
    });
  });
}
