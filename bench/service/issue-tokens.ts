// Issues real, revocable token pairs through the authorization server's own issuing function
// (issueGrantTokens from src/auth-server/index.ts) for a demo user of a seeded database, and
// registers the public client the W4 refresh flow uses. Run as a child with the service's
// environment (DATABASE_URL, BASE_URL, HASH_SECRET, …); prints JSON on stdout.
// Usage: node bench/service/issue-tokens.ts --email ada.admin@northwind.example --count 32
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/load.ts';
import { createLimits } from '../../src/limits/index.ts';
import { migrateToLatest, openStore } from '../../src/store/database.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail } from '../../src/store/users.ts';
import { upsertClient } from '../../src/store/oauth-clients.ts';

const BENCH_CLIENT_ID = 'agent-access-bench';

const { values } = parseArgs({ options: { email: { type: 'string' }, count: { type: 'string' } }, strict: true });
const email = values.email ?? 'ada.admin@northwind.example';
const count = Number(values.count ?? '1');

// Imported here, not at the top: a tree without the issuing function fails with a clear message.
const authServer = (await import('../../src/auth-server/index.ts')) as Record<string, unknown>;
const issue = authServer.issueGrantTokens as
  | ((ctx: unknown, input: { userId: string; orgId: string; clientId: string; scopes: string[]; resource: string }) => Promise<{ accessToken: string; refreshToken: string }>)
  | undefined;
const canonicalResource = authServer.canonicalResource as ((config: unknown) => string) | undefined;
if (!issue || !canonicalResource) throw new Error('src/auth-server/index.ts does not export issueGrantTokens and canonicalResource');

const config = loadConfig();
const logger = pino({ level: 'silent' });
const store = openStore(config.database);
const limits = createLimits(undefined, logger);
try {
  await migrateToLatest(store);
  const domain = email.split('@')[1] ?? '';
  const org = await findOrganizationByDomain(store.db, domain);
  if (!org) throw new Error(`no organization with domain ${domain}: seed the database first`);
  const user = await findUserByEmail(store.db, org.id, email);
  if (!user) throw new Error(`no user ${email} in ${org.name}`);
  await upsertClient(store.db, {
    clientId: BENCH_CLIENT_ID,
    kind: 'first_party',
    clientName: 'Agent Access benchmark',
    redirectUris: ['http://127.0.0.1/callback'],
    grantTypes: ['authorization_code', 'refresh_token'],
    responseTypes: ['code'],
    tokenEndpointAuthMethod: 'none',
    scope: 'mcp offline_access',
    secretHash: null,
    registrationTokenHash: null,
    applicationType: 'native',
    clientUri: null,
    logoUri: null,
    policyUri: null,
    tosUri: null,
    softwareId: null,
    softwareVersion: null,
    metadataExpiresAt: null,
  });
  const ctx = { config, store, limits, logger };
  const pairs: { accessToken: string; refreshToken: string }[] = [];
  for (let i = 0; i < count; i++) {
    const t = await issue(ctx, { userId: user.id, orgId: org.id, clientId: BENCH_CLIENT_ID, scopes: ['mcp', 'offline_access'], resource: canonicalResource(config) });
    pairs.push({ accessToken: t.accessToken, refreshToken: t.refreshToken });
  }
  process.stdout.write(JSON.stringify({ orgId: org.id, userId: user.id, clientId: BENCH_CLIENT_ID, pairs }) + '\n');
} finally {
  await limits.close();
  await store.close();
}
