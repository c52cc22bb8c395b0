// What the fuzzer aims at: a real service on a seeded database with OAuth limits lifted (a 429 is a
// valid answer but teaches nothing), many users with live tokens (the MCP endpoint limits each user
// to 120 calls a minute), registered clients, and real ids and cursors from both organizations —
// so generated requests reach deep code, not just the first validation step.
import { z } from 'zod';
import type { Dialect } from '../../../src/store/database.ts';
import { seedDemo } from '../../../src/data/seed.ts';
import { issueGrantTokens } from '../../../src/auth-server/index.ts';
import { createUser } from '../../../src/store/users.ts';
import { tools } from '../../../src/mcp/tools/index.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { signInAsDemoUser } from '../../support/demo-signin.ts';
import { mcpRequest, registerClient, type Client } from '../support/oauth-flow.ts';
import { rpcMessage } from '../../support/mcp-message.ts';

export type Fixture = {
  service: TestService;
  base: string;
  /** Live access tokens, one per user; pick by case index to spread the per-user rate limit. */
  tokens: string[];
  refreshTokens: string[];
  publicClient: Client;
  secretClient: Client;
  /** Tool name → its argument names (from the input schemas). */
  toolArgs: Record<string, string[]>;
  /** Real record ids of both organizations, and people's emails. */
  ids: string[];
  emails: string[];
  /** Real cursors, returned to some user for some query. */
  cursors: string[];
  /** A signed-in browser's Cookie header (demo sign-in of an admin). */
  cookie: string;
  close(): Promise<void>;
};

export async function startFuzzFixture(options: { dialect?: Dialect; users?: number; meetings?: number } = {}): Promise<Fixture> {
  const service = await startTestService({
    dialect: options.dialect ?? 'sqlite',
    env: { OAUTH_REGISTER_PER_HOUR: '1000000', OAUTH_REQUESTS_PER_MINUTE: '1000000' },
  });
  const { store } = service.ctx;
  const db = store.db;
  await seedDemo(store, { meetings: options.meetings ?? 60, documents: 15, appUrl: service.ctx.config.appUrl });
  const orgs = await db.selectFrom('organizations').select(['id']).execute();
  const northwind = (await db.selectFrom('org_domains').select('org_id').where('domain', '=', 'northwind.example').executeTakeFirstOrThrow()).org_id;
  const resource = `${service.baseUrl}/mcp`;

  const tokens: string[] = [];
  const refreshTokens: string[] = [];
  const existing = await db.selectFrom('users').select(['id', 'org_id', 'email']).execute();
  const people = [...existing];
  for (let i = people.length; i < (options.users ?? 40); i++) {
    const roles = ['member', 'viewer', 'manager', 'admin'] as const;
    people.push(await createUser(db, { orgId: northwind, email: `fuzz${i}@northwind.example`, name: `Fuzz ${i}`, role: roles[i % 4]! }).then((u) => ({ id: u.id, org_id: northwind, email: u.email })));
  }
  for (const [i, user] of people.entries()) {
    const issued = await issueGrantTokens(service.ctx, { userId: user.id, orgId: user.org_id, clientId: `fuzz-client-${i}`, scopes: ['mcp'], resource });
    tokens.push(issued.accessToken);
    refreshTokens.push(issued.refreshToken);
  }

  const publicClient = await registerClient(service.baseUrl);
  const secretClient = await registerClient(service.baseUrl, { token_endpoint_auth_method: 'client_secret_basic' });

  const toolArgs: Record<string, string[]> = {};
  for (const tool of tools) {
    const schema = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
    toolArgs[tool.name] = Object.keys(schema.properties ?? {});
  }

  const ids: string[] = [];
  for (const table of ['meetings', 'deals', 'reports', 'agents', 'teams', 'accounts'] as const) {
    for (const org of orgs) {
      const rows = await db.selectFrom(table).select('id').where('org_id', '=', org.id).limit(6).execute();
      ids.push(...rows.map((r) => String(r.id)));
    }
  }
  const emails = people.slice(0, 30).map((p) => p.email);

  const cursors: string[] = [];
  for (const [name, args] of [['list_meetings', { limit: 1, range: 'last_30_days' }], ['get_deals', { limit: 1 }], ['list_reports', { limit: 1 }], ['list_agents', { limit: 1 }]] as const) {
    for (const token of [tokens[0]!, tokens.at(-1)!]) {
      const res = await mcpRequest(service.baseUrl, token, 'tools/call', { name, arguments: args });
      const message = (await rpcMessage(res)) as { result?: { structuredContent?: { next_cursor?: string | null } } };
      const cursor = message.result?.structuredContent?.next_cursor;
      if (cursor) cursors.push(cursor);
    }
  }

  const cookie = await signInAsDemoUser(service.baseUrl, 'ada.admin@northwind.example');
  return { service, base: service.baseUrl, tokens, refreshTokens, publicClient, secretClient, toolArgs, ids, emails, cursors, cookie, close: () => service.close() };
}
