// Anchor (d) of W1: the SDK as documented (anchor (b): createMcpHandler, a fresh McpServer per
// request, the tool's schemas declared inside the factory) serving the page the service serves:
// list_meetings reads the newest meetings of the last 30 days from the same SQLite database, with
// their owners, accounts and external participants and a total counted up to 500, and answers the
// same items as structured content with its JSON text (the service's ~40 KB). It is what a
// developer following the SDK's documentation would write for this one tool, with its SQL written
// plainly and each statement prepared once. It does less than the service: no bearer check, no
// cursor signing, no access policy (the bench's caller is an admin, who sees every meeting), no
// answer budget, and no `truncated`, `filters` or `scope` in its answer.
// DATABASE_URL is the dataset's `sqlite:` URL; BENCH_ORG_DOMAIN names its organization; APP_URL is
// where its links point (the service's); BENCH_NOW, for tests only, fixes "now" (ms since 1970).
import { DatabaseSync } from 'node:sqlite';
import { serve } from '@hono/node-server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const url = process.env.DATABASE_URL ?? '';
if (!url.startsWith('sqlite:')) throw new Error('anchor (d) reads a SQLite dataset: DATABASE_URL=sqlite:…');
const db = new DatabaseSync(url.slice('sqlite:'.length), { readOnly: true, timeout: 5000 });
const org = db.prepare('select org_id from org_domains where domain = ?').get(process.env.BENCH_ORG_DOMAIN ?? 'northwind.example') as { org_id: string } | undefined;
if (!org) throw new Error('anchor (d): no organization holds that domain');
const orgId = org.org_id;

const DAY = 86_400_000;
const TOTAL_CAP = 500;
const page = db.prepare(`
  select m.id, m.title, m.start_at, m.end_at, m.status, m.deal_id, m.meeting_type, m.has_transcript,
         m.summary_md is not null as has_notes, u.name as owner_name, u.email as owner_email, a.domain as prospect_org
  from meetings m
  left join users u on u.org_id = m.org_id and u.id = m.owner_id
  left join accounts a on a.org_id = m.org_id and a.id = m.account_id
  where m.org_id = ? and m.start_at >= ? and m.start_at < ?
  order by m.start_at desc, m.id desc
  limit ?`);
const count = db.prepare('select count(*) as n from (select 1 from meetings where org_id = ? and start_at >= ? and start_at < ? limit ?)');
type Row = { id: string; title: string; start_at: number; end_at: number; status: string; deal_id: string | null; meeting_type: string; has_transcript: number; has_notes: number; owner_name: string | null; owner_email: string | null; prospect_org: string | null };
type Person = { meeting_id: string; name: string; email: string | null; company: string | null; title: string | null };
/** The external participants of some meetings: one statement per number of meetings, prepared on first use. */
const byCount = new Map<number, ReturnType<typeof db.prepare>>();
const externals = (ids: string[]) => {
  let statement = byCount.get(ids.length);
  if (!statement) {
    statement = db.prepare(`select meeting_id, name, email, company, title from participants where org_id = ? and meeting_id in (${ids.map(() => '?').join(', ')}) and side <> 'seller' order by meeting_id, id`);
    byCount.set(ids.length, statement);
  }
  return statement.all(orgId, ...ids) as Person[];
};

const appUrl = process.env.APP_URL ?? 'https://app.example.com';
const fixedNow = process.env.BENCH_NOW ? Number(process.env.BENCH_NOW) : undefined;
const iso = (ms: number) => new Date(ms).toISOString();

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-same-page', version: '1.0.0' });
  const person = z.object({ name: z.string(), email: z.string().nullable(), company: z.string().nullable(), title: z.string().nullable() });
  server.registerTool(
    'list_meetings',
    {
      description: 'Lists the meetings of the last 30 days, newest first.',
      inputSchema: z.object({ limit: z.number().int().min(1).max(100).default(25) }),
      outputSchema: z.object({
        meetings: z.array(
          z.object({
            meeting_id: z.string(),
            title: z.string(),
            start: z.string(),
            end: z.string(),
            duration_min: z.number(),
            status: z.enum(['scheduled', 'completed', 'canceled']),
            owner: z.object({ name: z.string(), email: z.string().nullable() }),
            prospect_org: z.string().nullable(),
            deal_id: z.string().nullable(),
            meeting_type: z.enum(['internal', 'external']),
            external_participants: z.array(person),
            external_participant_count: z.number(),
            has_transcript: z.boolean(),
            has_notes: z.boolean(),
            url: z.string(),
          }),
        ),
        next_cursor: z.string().nullable(),
        has_more: z.boolean(),
        total: z.number().nullable(),
      }),
    },
    async ({ limit }) => {
      const to = fixedNow ?? Date.now();
      const from = to - 30 * DAY;
      const rows = page.all(orgId, from, to, limit + 1) as Row[];
      const shown = rows.slice(0, limit);
      const byMeeting = new Map<string, Person[]>(shown.map((m) => [m.id, []]));
      if (shown.length) for (const p of externals(shown.map((m) => m.id))) byMeeting.get(p.meeting_id)?.push(p);
      const counted = Number((count.get(orgId, from, to, TOTAL_CAP + 1) as { n: number }).n);
      const last = shown.at(-1);
      const result = {
        meetings: shown.map((m) => {
          const external = (byMeeting.get(m.id) ?? []).map(({ name, email, company, title }) => ({ name, email, company, title }));
          return {
            meeting_id: m.id,
            title: m.title,
            start: iso(m.start_at),
            end: iso(m.end_at),
            duration_min: Math.round((m.end_at - m.start_at) / 60_000),
            status: m.status as 'scheduled' | 'completed' | 'canceled',
            owner: { name: m.owner_name ?? 'Former user', email: m.owner_email },
            prospect_org: m.prospect_org,
            deal_id: m.deal_id,
            meeting_type: m.meeting_type as 'internal' | 'external',
            external_participants: external.slice(0, 8),
            external_participant_count: external.length,
            has_transcript: m.has_transcript === 1,
            has_notes: m.has_notes === 1,
            url: `${appUrl}/meetings/${encodeURIComponent(m.id)}`,
          };
        }),
        next_cursor: rows.length > limit && last ? Buffer.from(JSON.stringify([last.start_at, last.id])).toString('base64url') : null,
        has_more: rows.length > limit,
        total: counted <= TOTAL_CAP ? counted : null,
      };
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    },
  );
  return server;
});

serve({ fetch: (request) => (new URL(request.url).pathname === '/healthz' ? new Response('ok') : handler.fetch(request)), port: Number(process.env.PORT), hostname: '127.0.0.1' });
