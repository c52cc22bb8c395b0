// A store with the demo documents of two organizations, and principals to ask as.
import type { Principal } from '../../src/access/principal.ts';
import type { Dialect, Store } from '../../src/store/database.ts';
import { createOrganization } from '../../src/store/organizations.ts';
import { createTeam } from '../../src/store/teams.ts';
import { seedDemoDocuments, type DemoTeam } from '../../src/search/index.ts';
import { openTestStore } from '../support/databases.ts';

export const NOW = Date.parse('2026-11-01T00:00:00Z');

export type SearchFixture = {
  store: Store;
  northwind: { orgId: string; teams: DemoTeam[] };
  globex: { orgId: string; teams: DemoTeam[] };
  /** A member of the given Northwind teams (none by default). */
  member(teamIds?: string[], org?: 'northwind' | 'globex'): Principal;
  cleanup(): Promise<void>;
};

export async function openSearchFixture(dialect: Dialect): Promise<SearchFixture> {
  const { store, cleanup } = await openTestStore(dialect);
  const license = { plan: 'paid' as const, trialEndsAt: null, seats: 50 };
  const nw = await createOrganization(store.db, { name: 'Northwind Software', domains: ['northwind.example'], license });
  const gx = await createOrganization(store.db, { name: 'Globex', domains: ['globex.example'], license });
  const nwTeams: DemoTeam[] = [];
  for (const name of ['Enterprise East', 'Enterprise West', 'Mid-Market', 'SMB', 'Customer Success']) nwTeams.push(await createTeam(store.db, { orgId: nw.id, name }));
  const gxTeams: DemoTeam[] = [];
  for (const name of ['Globex Sales', 'Globex Partners']) gxTeams.push(await createTeam(store.db, { orgId: gx.id, name }));
  await seedDemoDocuments(store, nw.id, nwTeams, { now: NOW });
  await seedDemoDocuments(store, gx.id, gxTeams, { now: NOW, count: 40, company: 'Globex', product: 'Globex Sales Suite' });
  return {
    store,
    northwind: { orgId: nw.id, teams: nwTeams },
    globex: { orgId: gx.id, teams: gxTeams },
    member(teamIds = [], org = 'northwind') {
      const orgId = org === 'northwind' ? nw.id : gx.id;
      return { userId: `usr_${org}`, orgId, email: `mia.member@${org}.example`, name: 'Mia Member', role: 'member', timezone: 'UTC', teamIds, managedTeamIds: [], managedMemberIds: [], restrictMeetingDetails: false };
    },
    cleanup,
  };
}
