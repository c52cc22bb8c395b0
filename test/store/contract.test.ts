// The storage contract: the same cases run against SQLite and PostgreSQL, each dialect on its own
// fresh database, so any behaviour the service relies on is proven on both.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateToLatest, StoreClosedError, type Store } from '../../src/store/database.ts';
import { ConflictError } from '../../src/store/errors.ts';
import { newId } from '../../src/store/ids.ts';
import { createOrganization, findOrganization, findOrganizationByDomain, listOrganizations, licenseIsActive, setLicense, setSso } from '../../src/store/organizations.ts';
import { createUser, findUser, findUserByEmail, findUserByIdentity, linkIdentity, listUsers, setUserRole, setUserStatus } from '../../src/store/users.ts';
import { addTeamMember, createTeam, listTeamMembers, managedTeamIds, teamIdsOfUser } from '../../src/store/teams.ts';
import { createClient, deleteClientsUnusedSince, findClient, touchClient, upsertClient, type NewOAuthClient } from '../../src/store/oauth-clients.ts';
import { dialectsUnderTest, openTestStore } from '../support/databases.ts';

const trial = () => ({ plan: 'trial' as const, trialEndsAt: Date.now() + 14 * 86_400_000, seats: null });
let unique = 0;
const domain = () => `d${Date.now().toString(36)}${unique++}.example`;

async function org(store: Store, domains = [domain()]) {
  return createOrganization(store.db, { name: 'Acme', domains, license: trial() });
}

function client(overrides: Partial<NewOAuthClient> = {}): NewOAuthClient {
  return {
    clientId: newId('cli'),
    kind: 'dynamic',
    clientName: 'Test client',
    redirectUris: ['http://localhost/callback', 'https://app.example.com/cb'],
    grantTypes: ['authorization_code', 'refresh_token'],
    responseTypes: ['code'],
    tokenEndpointAuthMethod: 'none',
    scope: 'mcp offline_access',
    secretHash: null,
    registrationTokenHash: 'h1',
    applicationType: null,
    clientUri: null,
    logoUri: null,
    policyUri: null,
    tosUri: null,
    softwareId: null,
    softwareVersion: null,
    metadataExpiresAt: null,
    ...overrides,
  };
}

const cases: Array<[string, (store: Store) => Promise<void>]> = [
  ['migrations are idempotent: a second run applies nothing', async (store) => {
    const again = await migrateToLatest(store);
    assert.deepEqual(again.results, []);
  }],
  ['an organization round-trips with its domains and license', async (store) => {
    const d = domain();
    const created = await createOrganization(store.db, { name: 'Northwind', domains: [d.toUpperCase(), d], license: trial(), autoJoinByDomain: false });
    const found = await findOrganization(store.db, created.id);
    assert.deepEqual(found, created);
    assert.deepEqual(found?.domains, [d]);
    assert.equal(found?.settings.autoJoinByDomain, false);
    assert.equal(found?.settings.sso, null);
    assert.ok(licenseIsActive(found!.license));
  }],
  ['an organization is found by any of its domains, case-insensitively', async (store) => {
    const d = domain();
    const created = await org(store, [d, `mail.${d}`]);
    assert.equal((await findOrganizationByDomain(store.db, `MAIL.${d}`))?.id, created.id);
    assert.equal(await findOrganizationByDomain(store.db, 'nobody.example'), undefined);
  }],
  ['a domain belongs to one organization, and a refused one leaves nothing half-written', async (store) => {
    const d = domain();
    await org(store, [d]);
    const before = (await listOrganizations(store.db)).length;
    await assert.rejects(createOrganization(store.db, { name: 'Copycat', domains: [domain(), d], license: trial() }), ConflictError);
    assert.equal((await listOrganizations(store.db)).length, before);
  }],
  ['a license and SSO settings are updated in place', async (store) => {
    const o = await org(store);
    await setLicense(store.db, o.id, { plan: 'expired', trialEndsAt: 1, seats: 5 });
    await setSso(store.db, o.id, { issuer: 'https://sso.example.com', clientId: 'c', clientSecretEncrypted: 'enc', domains: ['A.example'] });
    const found = await findOrganization(store.db, o.id);
    assert.equal(found?.license.plan, 'expired');
    assert.equal(licenseIsActive(found!.license), false);
    assert.deepEqual(found?.settings.sso, { issuer: 'https://sso.example.com', clientId: 'c', clientSecretEncrypted: 'enc', domains: ['a.example'] });
  }],
  ['users are unique by email within an organization, not across organizations', async (store) => {
    const a = await org(store);
    const b = await org(store);
    const ada = await createUser(store.db, { orgId: a.id, email: ' Ada@Example.com ', name: 'Ada', role: 'admin' });
    assert.equal(ada.email, 'ada@example.com');
    await assert.rejects(createUser(store.db, { orgId: a.id, email: 'ada@example.com', name: 'Ada 2', role: 'member' }), ConflictError);
    await createUser(store.db, { orgId: b.id, email: 'ada@example.com', name: 'Ada elsewhere', role: 'member' });
    assert.equal((await findUserByEmail(store.db, a.id, 'ADA@example.com'))?.id, ada.id);
  }],
  ['a user is never found through another organization', async (store) => {
    const a = await org(store);
    const b = await org(store);
    const u = await createUser(store.db, { orgId: a.id, email: 'x@example.com', name: 'X', role: 'member' });
    assert.equal((await findUser(store.db, a.id, u.id))?.name, 'X');
    assert.equal(await findUser(store.db, b.id, u.id), undefined);
  }],
  ['role and status changes are stored and scoped to the organization', async (store) => {
    const a = await org(store);
    const b = await org(store);
    const u = await createUser(store.db, { orgId: a.id, email: 'y@example.com', name: 'Y', role: 'member' });
    assert.equal(await setUserRole(store.db, b.id, u.id, 'admin'), false);
    assert.equal(await setUserRole(store.db, a.id, u.id, 'manager'), true);
    assert.equal(await setUserStatus(store.db, a.id, u.id, 'disabled'), true);
    const found = await findUser(store.db, a.id, u.id);
    assert.equal(found?.role, 'manager');
    assert.equal(found?.status, 'disabled');
    assert.deepEqual((await listUsers(store.db, a.id)).map((x) => x.id), [u.id]);
  }],
  ['an upstream identity links to exactly one user', async (store) => {
    const a = await org(store);
    const u = await createUser(store.db, { orgId: a.id, email: 'z@example.com', name: 'Z', role: 'member' });
    const v = await createUser(store.db, { orgId: a.id, email: 'w@example.com', name: 'W', role: 'member' });
    const identity = { issuer: 'https://accounts.google.com', subject: newId('sub') };
    await linkIdentity(store.db, u, identity, 'z@example.com');
    assert.equal((await findUserByIdentity(store.db, identity))?.id, u.id);
    await assert.rejects(linkIdentity(store.db, v, identity, 'w@example.com'), ConflictError);
    assert.equal(await findUserByIdentity(store.db, { ...identity, subject: 'other' }), undefined);
  }],
  ['a manager manages their teams and every sub-team below them', async (store) => {
    const a = await org(store);
    const max = await createUser(store.db, { orgId: a.id, email: 'max@example.com', name: 'Max', role: 'manager' });
    const mia = await createUser(store.db, { orgId: a.id, email: 'mia@example.com', name: 'Mia', role: 'member' });
    const sales = await createTeam(store.db, { orgId: a.id, name: 'Sales' });
    const east = await createTeam(store.db, { orgId: a.id, name: 'East', parentTeamId: sales.id });
    const eastSmb = await createTeam(store.db, { orgId: a.id, name: 'East SMB', parentTeamId: east.id });
    const other = await createTeam(store.db, { orgId: a.id, name: 'Other' });
    await addTeamMember(store.db, a.id, { teamId: sales.id, userId: max.id, isManager: true });
    await addTeamMember(store.db, a.id, { teamId: eastSmb.id, userId: mia.id, isManager: false });
    await assert.rejects(addTeamMember(store.db, a.id, { teamId: sales.id, userId: max.id, isManager: false }), ConflictError);
    assert.deepEqual(await managedTeamIds(store.db, a.id, max.id), [sales.id, east.id, eastSmb.id].sort());
    assert.deepEqual(await managedTeamIds(store.db, a.id, mia.id), []);
    assert.deepEqual(await teamIdsOfUser(store.db, a.id, mia.id), [eastSmb.id]);
    assert.deepEqual(await listTeamMembers(store.db, a.id, other.id), []);
  }],
  ['an OAuth client round-trips with its lists and hashes', async (store) => {
    const c = client({ tokenEndpointAuthMethod: 'client_secret_post', secretHash: 'secret-hash' });
    const created = await createClient(store.db, c);
    const found = await findClient(store.db, c.clientId);
    assert.deepEqual(found, created);
    assert.deepEqual(found?.redirectUris, c.redirectUris);
    assert.equal(found?.secretHash, 'secret-hash');
    await assert.rejects(createClient(store.db, c), ConflictError);
  }],
  ['a client metadata document client is inserted, then replaced in place', async (store) => {
    const id = `https://client.example.com/${newId('doc')}.json`;
    await upsertClient(store.db, client({ clientId: id, kind: 'metadata_document', clientName: 'v1' }));
    const updated = await upsertClient(store.db, client({ clientId: id, kind: 'metadata_document', clientName: 'v2', redirectUris: ['https://client.example.com/cb'] }));
    assert.equal(updated.clientName, 'v2');
    assert.deepEqual((await findClient(store.db, id))?.redirectUris, ['https://client.example.com/cb']);
  }],
  ['clients unused since a cutoff are removed; used and first-party ones stay', async (store) => {
    const stale = await createClient(store.db, client());
    const used = await createClient(store.db, client());
    const firstParty = await createClient(store.db, client({ kind: 'first_party' }));
    const cutoff = Date.now() + 1000;
    await touchClient(store.db, used.clientId, cutoff + 1);
    const removed = await deleteClientsUnusedSince(store.db, cutoff);
    assert.ok(removed >= 1);
    assert.equal(await findClient(store.db, stale.clientId), undefined);
    assert.ok(await findClient(store.db, used.clientId));
    assert.ok(await findClient(store.db, firstParty.clientId));
  }],
  ['concurrent writers all commit', async (store) => {
    const a = await org(store);
    const users = await Promise.all(
      Array.from({ length: 25 }, (_, i) => createUser(store.db, { orgId: a.id, email: `p${i}@example.com`, name: `P${i}`, role: 'member' })),
    );
    assert.equal(new Set(users.map((u) => u.id)).size, 25);
    assert.equal((await listUsers(store.db, a.id)).length, 25);
  }],
];

for (const dialect of dialectsUnderTest()) {
  describe(`storage contract on ${dialect} (${cases.length} tests)`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ store, cleanup } = await openTestStore(dialect));
    });
    after(async () => {
      await cleanup?.();
    });
    for (const [name, run] of cases) it(name, () => run(store));
  });
}

for (const dialect of dialectsUnderTest()) {
  it(`a closed ${dialect} store opens no maintenance connection (nothing would close it)`, async () => {
    const { store, cleanup } = await openTestStore(dialect);
    try {
      await store.close();
      assert.throws(() => store.maintenanceDb(), StoreClosedError);
    } finally {
      await cleanup();
    }
  });
}
