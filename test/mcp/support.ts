// A seeded test database per dialect and principals for the demo accounts, so tool tests call
// the real tools over real SQL (no HTTP) and check results against each tool's outputSchema.
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Dialect, Store } from '../../src/store/database.ts';
import { openTestStore } from '../support/databases.ts';
import { seedDemo } from '../../src/data/seed.ts';
import { principalFromAuth, type Principal } from '../../src/access/principal.ts';
import { findOrganizationByDomain } from '../../src/store/organizations.ts';
import { findUserByEmail } from '../../src/store/users.ts';
import { runTool } from '../../src/mcp/run-tool.ts';
import { findTool } from '../../src/mcp/tools/index.ts';
import type { ToolContext } from '../../src/mcp/define-tool.ts';

export const ANCHOR = Date.UTC(2026, 10, 18, 12, 0, 0);
export const TEST_MEETINGS = 160;

export type Seeded = { store: Store; dialect: Dialect; cleanup(): Promise<void>; principal(email: string): Promise<Principal>; call(email: string, tool: string, args?: unknown): Promise<CallToolResult> };

export async function seededStore(dialect: Dialect, meetings = TEST_MEETINGS): Promise<Seeded> {
  const { store, cleanup } = await openTestStore(dialect);
  await seedDemo(store, { meetings, anchor: ANCHOR, documents: 30, appUrl: 'https://app.example.com' });
  const cache = new Map<string, Principal>();
  const principal = async (email: string) => {
    const cached = cache.get(email);
    if (cached) return cached;
    const org = await findOrganizationByDomain(store.db, email.split('@')[1]!);
    assert.ok(org, `no org for ${email}`);
    const user = await findUserByEmail(store.db, org.id, email);
    assert.ok(user, `no user ${email}`);
    const result = await principalFromAuth(store.db, { userId: user.id, orgId: org.id });
    assert.ok(result.ok, `principal for ${email}`);
    cache.set(email, result.principal);
    return result.principal;
  };
  const call = async (email: string, name: string, args: unknown = {}) => {
    const tool = findTool(name);
    assert.ok(tool, `no tool ${name}`);
    const ctx: ToolContext = { store, principal: await principal(email), appUrl: 'https://app.example.com', cursorKey: 'test-cursor-key-0123456789abcdef', now: ANCHOR };
    return runTool(tool, args, ctx, { error: (obj, msg) => console.error(msg, obj) });
  };
  return { store, dialect, cleanup, principal, call };
}

/** The structured result of a successful call, checked against the tool's outputSchema. */
export function ok<T = Record<string, unknown>>(name: string, result: CallToolResult): T {
  assert.notEqual(result.isError, true, `${name} failed: ${JSON.stringify(result.content).slice(0, 600)}`);
  const tool = findTool(name)!;
  const parsed = tool.outputSchema.safeParse(result.structuredContent);
  assert.ok(parsed.success, `${name} output does not match its outputSchema: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`);
  assert.equal(result.content[0]?.type, 'text');
  return result.structuredContent as T;
}

/** The error code of a failed call, after checking the error shape (tools.md rule 8). */
export function errorCode(result: CallToolResult): string {
  assert.equal(result.isError, true, `expected a tool error, got ${String(JSON.stringify(result.structuredContent)).slice(0, 300)}`);
  assert.equal(result.structuredContent, undefined, 'errors carry no structuredContent');
  assert.equal(result.content.length, 2);
  const second = result.content[1];
  assert.ok(second && second.type === 'text');
  const body = JSON.parse(second.text) as { error: { code: string; message: string; retryable: boolean; hint: string } };
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.hint, 'string');
  assert.equal(typeof body.error.retryable, 'boolean');
  return body.error.code;
}

export const EMAILS = {
  ada: 'ada.admin@northwind.example',
  max: 'max.manager@northwind.example',
  mia: 'mia.member@northwind.example',
  vic: 'vic.viewer@northwind.example',
  gia: 'gia.admin@globex.example',
  gus: 'gus.member@globex.example',
} as const;

/**
 * Makes the default qualification agent ambiguous for `email`'s organization: every qualification
 * agent it sees loses its primary flag. Returns the candidates (at least two) and a deal that has a
 * qualification result (found before the change, while get_deals still shows percents).
 */
export async function withoutPrimaryQualification(s: Seeded, email: string): Promise<{ candidates: string[]; dealId: string }> {
  const p = await s.principal(email);
  const deals = ok<{ deals: { deal_id: string; qualification_percent: number | null }[] }>('get_deals', await s.call(email, 'get_deals', { status: 'all', limit: 100 })).deals;
  const deal = deals.find((d) => d.qualification_percent !== null);
  assert.ok(deal, 'a deal of this organization has a qualification result');
  const agents = ok<{ agents: { template_id: string }[] }>('list_agents', await s.call(email, 'list_agents', { category: 'qualification' })).agents;
  const candidates = agents.map((a) => a.template_id);
  assert.ok(candidates.length >= 2, 'several qualification agents are visible');
  await s.store.db.updateTable('agents').set({ is_primary: 0 }).where('org_id', '=', p.orgId).where('id', 'in', candidates).execute();
  return { candidates, dealId: deal.deal_id };
}
