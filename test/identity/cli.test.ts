// The admin CLI (orgs, users) and the production refusal of the demo identity provider, through
// the real `agent-access` entry point in a child process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSecret, ssoSecretContext } from '../../src/crypto/secret-box.ts';
import { loadConfig } from '../../src/config/load.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail, createUser } from '../../src/store/users.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';

describe('APP_ENV=production refuses the demo identity provider', () => {
  test('serve with APP_ENV=production and DEMO_IDP=true exits naming DEMO_IDP', async () => {
    const result = await runCli(['serve'], {
      APP_ENV: 'production',
      DEMO_IDP: 'true',
      BASE_URL: 'https://agents.example.com',
      DATABASE_URL: 'sqlite:/nonexistent/never-opened.db',
      HASH_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /DEMO_IDP/);
    assert.match(result.stderr, /production/);
  });
});

describe('agent-access orgs and users', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let store: Store;

  before(async () => {
    database = await createTestDatabase('sqlite');
    env = { DATABASE_URL: database.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'aas-cli-')), LOG_LEVEL: 'silent' };
    store = openStore(database.config);
    await migrateToLatest(store);
  });
  after(async () => {
    await store.close();
    await database.drop();
  });

  test('orgs create makes an organization with a trial license', async () => {
    const r = await runCli(['orgs', 'create', '--name', 'Umbrella', '--domain', 'umbrella.example', '--trial-days', '30'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /created org_\w+ Umbrella \(umbrella\.example\), trial until \d{4}-\d{2}-\d{2}/);
    const org = await findOrganizationByDomain(store.db, 'umbrella.example');
    assert.equal(org?.license.plan, 'trial');
    const days = ((org?.license.trialEndsAt ?? 0) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30);
  });

  test('orgs create refuses a bad domain with a usage error', async () => {
    const r = await runCli(['orgs', 'create', '--name', 'Bad', '--domain', 'not a domain'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a domain name/);
  });

  test('orgs list shows the organization', async () => {
    const r = await runCli(['orgs', 'list'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Umbrella\s+umbrella\.example\s+trial/);
  });

  test('orgs sso set stores the client secret encrypted, read from the environment', async () => {
    const r = await runCli(
      ['orgs', 'sso', 'set', '--org', 'umbrella.example', '--issuer', 'https://idp.umbrella.example', '--client-id', 'umb-client'],
      { ...env, SSO_CLIENT_SECRET: 'super-secret-value' },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /super-secret-value/);
    const org = await findOrganizationByDomain(store.db, 'umbrella.example');
    assert.ok(org?.settings.sso);
    assert.equal(org.settings.sso.issuer, 'https://idp.umbrella.example');
    assert.deepEqual(org.settings.sso.domains, ['umbrella.example']);
    assert.doesNotMatch(org.settings.sso.clientSecretEncrypted, /super-secret-value/);
    const config = loadConfig({ ...env, DATABASE_URL: database.url });
    assert.equal(openSecret(config.secrets.encryptionKey, org.settings.sso.clientSecretEncrypted, ssoSecretContext(org.id)), 'super-secret-value');
    const list = await runCli(['orgs', 'list', '--json'], env);
    assert.doesNotMatch(list.stdout, /clientSecret/);
  });

  test('orgs sso set refuses a domain the organization does not hold', async () => {
    const r = await runCli(['orgs', 'sso', 'set', '--org', 'umbrella.example', '--issuer', 'https://idp.example', '--client-id', 'c', '--domain', 'other.example'], {
      ...env,
      SSO_CLIENT_SECRET: 's',
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /only the organization's verified domains/);
  });

  test('orgs sso set --demo points the organization at the demo identity provider (development)', async () => {
    await runCli(['orgs', 'create', '--name', 'Demo SSO', '--domain', 'demo-sso.example', '--plan', 'paid'], env);
    const r = await runCli(['orgs', 'sso', 'set', '--org', 'demo-sso.example', '--demo'], { ...env, BASE_URL: 'http://localhost:4321' });
    assert.equal(r.code, 0, r.stderr);
    const org = await findOrganizationByDomain(store.db, 'demo-sso.example');
    assert.equal(org?.settings.sso?.issuer, 'http://localhost:4321/demo-idp/sso');
  });

  test('users list, set-role and disable', async () => {
    const org = await findOrganizationByDomain(store.db, 'umbrella.example');
    assert.ok(org);
    await createUser(store.db, { orgId: org.id, email: 'al@umbrella.example', name: 'Al', role: 'member' });
    let r = await runCli(['users', 'set-role', '--org', 'umbrella.example', '--user', 'al@umbrella.example', '--role', 'manager'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await findUserByEmail(store.db, org.id, 'al@umbrella.example'))?.role, 'manager');
    r = await runCli(['users', 'disable', '--org', org.id, '--user', 'al@umbrella.example'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await findUserByEmail(store.db, org.id, 'al@umbrella.example'))?.status, 'disabled');
    r = await runCli(['users', 'list', '--org', 'umbrella.example'], env);
    assert.match(r.stdout, /al@umbrella\.example\s+Al\s+manager\s+disabled/);
  });

  test('users set-role refuses an unknown role', async () => {
    const r = await runCli(['users', 'set-role', '--org', 'umbrella.example', '--user', 'al@umbrella.example', '--role', 'owner'], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--role must be/);
  });
});
