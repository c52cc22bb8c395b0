// The principal comes only from a verified token's user and org, and a usable account.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest, openTestStore } from '../support/databases.ts';
import type { Store } from '../../src/store/database.ts';
import { createOrganization, setLicense } from '../../src/store/organizations.ts';
import { createUser, setUserStatus } from '../../src/store/users.ts';
import { addTeamMember, createTeam } from '../../src/store/teams.ts';
import { principalFromAuth } from '../../src/access/principal.ts';
import { ownersSeen } from '../../src/access/visibility.ts';

for (const dialect of dialectsUnderTest()) {
  describe(`principalFromAuth (${dialect})`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ store, cleanup } = await openTestStore(dialect));
    });
    after(() => cleanup());

    it('builds the principal with teams and managed sub-teams, and refuses disabled users and expired licenses with reasons', async () => {
      const db = store.db;
      const org = await createOrganization(db, { name: 'Acme', domains: ['acme.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } });
      const boss = await createUser(db, { orgId: org.id, email: 'boss@acme.example', name: 'Boss', role: 'manager' });
      const parent = await createTeam(db, { orgId: org.id, name: 'Sales' });
      const child = await createTeam(db, { orgId: org.id, name: 'Sales East', parentTeamId: parent.id });
      await addTeamMember(db, org.id, { teamId: parent.id, userId: boss.id, isManager: true });
      const ok = await principalFromAuth(db, { userId: boss.id, orgId: org.id });
      assert.ok(ok.ok);
      assert.equal(ok.principal.role, 'manager');
      assert.deepEqual(ok.principal.teamIds, [parent.id]);
      assert.deepEqual([...ok.principal.managedTeamIds].sort(), [parent.id, child.id].sort());
      // He is the one member of the team he manages: one owner, whose deals and meetings are read as a member's.
      assert.deepEqual(ownersSeen(ok.principal), [boss.id]);

      assert.equal((await principalFromAuth(db, { userId: boss.id, orgId: 'org_other' })).ok, false, 'a user id under another org is nobody');

      await setUserStatus(db, org.id, boss.id, 'disabled');
      const disabled = await principalFromAuth(db, { userId: boss.id, orgId: org.id });
      assert.ok(!disabled.ok && disabled.reason === 'user_disabled' && /disabled/.test(disabled.message));
      await setUserStatus(db, org.id, boss.id, 'active');

      await setLicense(db, org.id, { plan: 'trial', trialEndsAt: Date.now() - 1000, seats: null });
      const expired = await principalFromAuth(db, { userId: boss.id, orgId: org.id });
      assert.ok(!expired.ok && expired.reason === 'license_expired' && /expired/.test(expired.message));
    });
  });
}
