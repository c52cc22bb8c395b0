// Tenant isolation as a property: a random user (every role, both demo organizations) calls a
// random tool over POST /mcp with random arguments built from ids, cursors, emails and names of
// both organizations — records the user may and may not see — and garbage. Whatever the answer,
// it never names a record outside the caller's visibility as computed by oracle.ts.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TestService } from '../../support/service.ts';
import { issueGrantTokens } from '../../../src/auth-server/index.ts';
import { tools } from '../../../src/mcp/tools/index.ts';
import { z } from 'zod';
import { mcpRequest } from '../support/oauth-flow.ts';
import { rpcMessage } from '../../support/mcp-message.ts';
import { loadSnapshot, visibilityOf as computeVisibility, type Snapshot, type Visibility } from './oracle.ts';

const memo = new WeakMap<Snapshot, Map<string, Visibility>>();
/** The oracle's answer per user, computed once per snapshot. */
function visibilityOf(s: Snapshot, userId: string): Visibility {
  const byUser = memo.get(s) ?? new Map<string, Visibility>();
  memo.set(s, byUser);
  let v = byUser.get(userId);
  if (!v) byUser.set(userId, (v = computeVisibility(s, userId)));
  return v;
}

const ID = /\b(?:mtg|deal|rpt|agt|team|doc|usr|acct|org)_[a-z0-9]{10,}\b/g;
/** Which visibility set the id under each key must belong to. */
const KEY_KINDS: Record<string, keyof Omit<Visibility, 'org' | 'details'>> = {
  meeting_id: 'meetings', deal_id: 'deals', report_id: 'reports', template_id: 'agents', team_id: 'teams', document_id: 'documents',
};

export type IsolationWorld = { service: TestService; snapshot: Snapshot; users: { id: string; token: string; email: string; role: string }[]; cursors: string[]; toolArgs: Record<string, string[]>; toolRequired: Record<string, string[]> };

export async function prepareWorld(service: TestService): Promise<IsolationWorld> {
  const snapshot = await loadSnapshot(service.ctx.store.db);
  const resource = `${service.baseUrl}/mcp`;
  const users = [];
  for (const u of snapshot.users.filter((u) => u.status === 'active')) {
    const issued = await issueGrantTokens(service.ctx, { userId: u.id, orgId: u.org, clientId: `iso-${u.id}`, scopes: ['mcp'], resource });
    users.push({ id: u.id, token: issued.accessToken, email: u.email, role: u.role });
  }
  const toolArgs: Record<string, string[]> = {};
  const toolRequired: Record<string, string[]> = {};
  for (const tool of tools) {
    const schema = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as { properties?: object; required?: string[] };
    toolArgs[tool.name] = Object.keys(schema.properties ?? {});
    toolRequired[tool.name] = schema.required ?? [];
  }
  // Real cursors, minted for other users and queries: a foreign cursor must never page elsewhere.
  const cursors: string[] = [];
  for (const user of users.filter((_, i) => i % 7 === 0)) {
    for (const [name, args] of [['list_meetings', { limit: 1, range: 'this_quarter' }], ['get_deals', { limit: 1, status: 'all' }], ['list_reports', { limit: 1 }], ['list_agents', { limit: 1 }]] as const) {
      const message = (await rpcMessage(await mcpRequest(service.baseUrl, user.token, 'tools/call', { name, arguments: args }))) as { result?: { structuredContent?: { next_cursor?: string } } };
      const cursor = message.result?.structuredContent?.next_cursor;
      if (cursor) cursors.push(cursor);
    }
  }
  return { service, snapshot, users, cursors, toolArgs, toolRequired };
}

function argumentsFor(w: IsolationWorld, tool: string, userId: string): fc.Arbitrary<Record<string, unknown>> {
  const s = w.snapshot;
  const mine = visibilityOf(s, userId);
  // Ids of the kind the argument names (both organizations, visible or not), sometimes any id.
  const sample = <T extends { id: string }>(rows: T[]) => fc.constantFrom(...rows.slice(0, 400).map((r) => r.id));
  const byKind: Record<string, fc.Arbitrary<string>> = {
    meeting: sample(s.meetings), deal: sample(s.deals), report: sample(s.reports), template: sample(s.agents), team: sample(s.teams), document: sample(s.documents), section: fc.constantFrom('summary', 'pipeline', '1', 'Risks'),
  };
  const anyId = fc.oneof(...Object.values(byKind));
  // Half the time a record the caller does see (so calls succeed and return data to check).
  const visibleOf: Record<string, string[]> = { meeting: [...mine.meetings], deal: [...mine.deals], report: [...mine.reports], template: [...mine.agents], team: [...mine.teams], document: [...mine.documents] };
  const idFor = (name: string) => {
    const kind = Object.keys(byKind).find((k) => name.startsWith(k) || name === `${k}_id` || (k === 'deal' && name === 'deal_key'));
    if (!kind) return anyId;
    const visible = visibleOf[kind] ?? [];
    return fc.oneof({ weight: 8, arbitrary: byKind[kind]! }, { weight: 1, arbitrary: anyId }, ...(visible.length ? [{ weight: 9, arbitrary: fc.constantFrom(...visible.slice(0, 300)) }] : []));
  };
  const ids = anyId;
  const emails = fc.constantFrom(...[...s.emailsByOrg.values()].flatMap((set) => [...set].slice(0, 40)));
  const words = fc.constantFrom(...[...s.words.values()].flatMap((list) => list.slice(0, 150)));
  const cursor = w.cursors.length ? fc.oneof(fc.constantFrom(...w.cursors), fc.string({ maxLength: 30 })) : fc.string();
  const valueFor = (name: string): fc.Arbitrary<unknown> => {
    if (name === 'meeting_ids' || name === 'document_ids') return fc.array(idFor(name), { minLength: 1, maxLength: 5 });
    if (name === 'participant_emails' || name === 'speakers') return fc.array(emails, { minLength: 1, maxLength: 3 });
    if (name.endsWith('cursor')) return cursor;
    if (name.endsWith('_id') || name === 'deal_key' || name === 'section') return fc.oneof({ weight: 12, arbitrary: idFor(name) }, { weight: 1, arbitrary: ids }, { weight: 1, arbitrary: words });
    if (name === 'owner') return fc.oneof(fc.constant('me'), emails);
    if (['q', 'search', 'question', 'prospect_org', 'methodology'].includes(name)) return words;
    if (['limit', 'top_k', 'last_n_meetings', 'meetings_limit', 'context_segments'].includes(name)) return fc.integer({ min: 1, max: 100 });
    if (name === 'range') return fc.constantFrom('last_30_days', 'this_quarter', 'last_quarter', 'next_7_days');
    if (name === 'start') return fc.constantFrom('2025-11-01', '2026-06-01');
    if (name === 'end') return fc.constantFrom('2026-11-30', '2026-12-31');
    if (name === 'status') return fc.constantFrom('all', 'open', 'won', 'lost', 'completed');
    if (name.startsWith('include') || name.startsWith('has_') || name === 'only_mine') return fc.oneof(fc.boolean(), fc.constantFrom(['notes', 'participants', 'agent_results_available', 'previous_meeting_notes'], ['crm', 'meetings', 'upcoming_meetings', 'stakeholders', 'qualification_summary']));
    return fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
  };
  const names = w.toolArgs[tool] ?? [];
  if (!names.length) return fc.constant({});
  // The identifying arguments (x_id) most of the time, and up to three others.
  const key = names.filter((n) => /_id$|_key$/.test(n) && n !== 'team_id');
  const rest = names.filter((n) => !key.includes(n));
  const chosenNames = fc.tuple(fc.subarray(key, { minLength: key.length ? 1 : 0, maxLength: Math.min(2, key.length) }), fc.subarray(rest, { maxLength: Math.min(2, rest.length) })).map(([a, b]) => [...new Set([...(w.toolRequired[tool] ?? []), ...a, ...b])]);
  return chosenNames.chain((chosen) => fc.tuple(...chosen.map(valueFor)).map((values) => Object.fromEntries(chosen.map((n, i) => [n, values[i]]).filter(([, v]) => v !== undefined))));
}

/** Every violation of the caller's visibility in one tool answer (empty = fine). */
export function violations(w: IsolationWorld, userId: string, tool: string, args: Record<string, unknown>, result: { isError?: boolean; content?: { text?: string }[]; structuredContent?: unknown }): string[] {
  const v = visibilityOf(w.snapshot, userId);
  const out: string[] = [];
  const argText = JSON.stringify(args);
  const otherEmails = [...w.snapshot.emailsByOrg].filter(([org]) => org !== v.org).flatMap(([, set]) => [...set]);
  const text = JSON.stringify(result);
  // 1. No id or person of another organization, anywhere, unless the caller sent it.
  for (const id of text.match(ID) ?? []) {
    const org = w.snapshot.orgOf.get(id);
    if (org && org !== v.org && !argText.includes(id)) out.push(`other org's ${id}`);
  }
  for (const email of otherEmails) if (text.includes(email) && !argText.includes(email)) out.push(`other org's ${email}`);
  if (result.isError) return out;
  // 2. Every record the answer names under a record key is one the caller may see (the echo of
  //    the caller's own filters excepted).
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'filters' || key === 'scope') continue;
      const kind = KEY_KINDS[key];
      if (kind && typeof value === 'string' && w.snapshot.orgOf.has(value) && !v[kind].has(value)) out.push(`${path}.${key}=${value} is not in the caller's ${kind}`);
      walk(value, `${path}.${key}`);
    }
  };
  walk(result.structuredContent, tool);
  // 3. Meeting details only where the details rule allows them.
  if (tool === 'get_meeting_transcript' || tool === 'agent_results') {
    const s = result.structuredContent as { meeting?: { meeting_id?: string }; results?: { meeting?: { meeting_id?: string }; status?: string; properties?: unknown[] }[] };
    const ids = tool === 'get_meeting_transcript' ? [s.meeting?.meeting_id] : (s.results ?? []).filter((r) => r.status === 'ok' && (r.properties?.length ?? 0) > 0).map((r) => r.meeting?.meeting_id);
    for (const id of ids) if (id && !v.details.has(id)) out.push(`${tool} revealed details of ${id}, outside the details rule`);
  }
  return out;
}

export type IsolationStats = { cases: number; errors: number; byTool: Record<string, number>; errorCodes: Record<string, number> };

export async function runIsolation(w: IsolationWorld, options: { numRuns: number; seed?: number }): Promise<IsolationStats> {
  const stats: IsolationStats = { cases: 0, errors: 0, byTool: {}, errorCodes: {} };
  const caseArb = fc.record({ user: fc.nat({ max: w.users.length - 1 }), tool: fc.constantFrom(...tools.map((t) => t.name)) }).chain(({ user, tool }) => argumentsFor(w, tool, w.users[user]!.id).map((args) => ({ user, tool, args })));
  const property = fc.asyncProperty(caseArb, async ({ user, tool, args }) => {
    const u = w.users[user]!;
    let res = await mcpRequest(w.service.baseUrl, u.token, 'tools/call', { name: tool, arguments: args });
    for (let tries = 0; res.status === 429 && tries < 5; tries++) {
      await res.body?.cancel();
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
      res = await mcpRequest(w.service.baseUrl, u.token, 'tools/call', { name: tool, arguments: args });
    }
    assert.equal(res.status, 200, `HTTP ${res.status} for ${tool}`);
    const message = (await rpcMessage(res)) as { result?: { isError?: boolean; content?: { text?: string }[]; structuredContent?: unknown }; error?: unknown };
    assert.ok(message.result, `no result: ${JSON.stringify(message.error)}`);
    stats.cases += 1;
    stats.byTool[tool] = (stats.byTool[tool] ?? 0) + 1;
    if (message.result.isError) {
      stats.errors += 1;
      const code = /"code":\s*"([a-z_]+)"/.exec(message.result.content?.[1]?.text ?? '')?.[1] ?? 'other';
      stats.errorCodes[`${tool}:${code}`] = (stats.errorCodes[`${tool}:${code}`] ?? 0) + 1;
    }
    const found = violations(w, u.id, tool, args, message.result);
    assert.deepEqual(found, [], `${u.role} ${u.email} called ${tool}(${JSON.stringify(args)}):\n${found.slice(0, 5).join('\n')}`);
  });
  const details = await fc.check(property, { numRuns: options.numRuns, seed: options.seed });
  if (details.failed) {
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`isolation property failed after ${details.numRuns} cases (seed ${details.seed}, path "${details.counterexamplePath}")\n${cause.slice(0, 4000)}`);
  }
  return stats;
}
