// The tools reference is generated from tool definitions (zod 4 schemas), so it cannot drift.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { tools } from '../../src/mcp/tools/index.ts';
import { renderToolsReference, SPEC_TOOL_NAMES, toJsonSchema, type ToolDefinitionLike } from '../../src/site/tools-reference.ts';
import { startTestService, type TestService } from '../support/service.ts';

const sample: ToolDefinitionLike[] = [
  {
    name: 'list_meetings',
    title: 'List meetings',
    description: 'Meetings the caller can see, newest first. Next: get_meeting.',
    inputSchema: z.object({
      start: z.string().optional().describe('Window start, RFC 3339 or YYYY-MM-DD.'),
      meeting_type: z.enum(['internal', 'external', 'all']).default('all').describe('Which meetings.'),
      limit: z.number().int().min(1).max(100).default(25).describe('Page size.'),
      participant_emails: z.array(z.string().email()).max(20).optional().describe('Only meetings with these people | or any.'),
    }),
    outputSchema: z.object({ meetings: z.array(z.object({ id: z.string() })).describe('This page.'), next_cursor: z.string().nullable(), has_more: z.boolean() }),
    annotations: { title: 'List meetings', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'get_teams',
    title: 'Get teams',
    description: 'Who the caller is and the teams they can see.',
    inputSchema: { only_mine: z.boolean().optional().describe('Only my teams.') },
    outputSchema: z.object({ me: z.object({ email: z.string() }) }),
    annotations: { title: 'Get teams', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
];

describe('renderToolsReference', () => {
  const markdown = renderToolsReference(sample);

  test('has one section per tool, with its description and annotations', () => {
    assert.match(markdown, /^## list_meetings$/m);
    assert.match(markdown, /^## get_teams$/m);
    assert.ok(markdown.includes('**List meetings.** Meetings the caller can see, newest first. Next: get_meeting.'));
    assert.ok(markdown.includes('Annotations: read-only, not destructive, idempotent, closed world'));
  });

  test('describes each argument from the zod schema: type, required, description, constraints', () => {
    assert.ok(markdown.includes('| `start` | string | no | Window start, RFC 3339 or YYYY-MM-DD. |'));
    assert.ok(markdown.includes('| `meeting_type` | "internal" \\| "external" \\| "all" | no | Which meetings. (default "all") |'));
    assert.ok(markdown.includes('| `limit` | integer | no | Page size. (default 25, min 1, max 100) |'));
    assert.match(markdown, /\| `participant_emails` \| array of string \(email\) \| no \| Only meetings with these people \\\| or any\. \(at most 20 items\) \|/);
  });

  test('accepts raw zod shapes as well as zod objects', () => {
    assert.ok(markdown.includes('| `only_mine` | boolean | no | Only my teams. |'));
  });

  test('describes result fields from the output schema', () => {
    assert.ok(markdown.includes('| `meetings` | array of object | yes | This page. |'));
    assert.match(markdown, /\| `next_cursor` \| string or null \| yes \|/);
    assert.ok(markdown.includes('| `meetings[].id` | string | yes |'), 'nested result fields one level down');
  });

  test('a changed schema changes the page', () => {
    const changed = renderToolsReference([{ ...sample[0]!, inputSchema: z.object({ q: z.string().describe('Title text.') }) }]);
    assert.ok(changed.includes('| `q` | string | yes | Title text. |'));
    assert.ok(!changed.includes('`start`'));
  });
});

describe('GET /developers/tools', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.close());

  test('names all twelve tools of the spec', async () => {
    const markdown = await (await fetch(`${service.baseUrl}/developers/tools`, { headers: { accept: 'text/markdown' } })).text();
    for (const name of SPEC_TOOL_NAMES) assert.ok(markdown.includes(name), `mentions ${name}`);
  });

  test('is generated from the registry the server runs: every tool, description and argument', async () => {
    const markdown = await (await fetch(`${service.baseUrl}/developers/tools`, { headers: { accept: 'text/markdown' } })).text();
    assert.ok(!markdown.includes('not part of this build'), 'the registry is wired, not the names-only fallback');
    assert.deepEqual([...markdown.matchAll(/^## (\S+)$/gm)].map((m) => m[1]), tools.map((t) => t.name));
    for (const tool of tools) {
      assert.ok(markdown.includes(tool.description.trim()), `${tool.name} description`);
      for (const argument of Object.keys(toJsonSchema(tool.inputSchema, 'input')?.properties ?? {})) {
        assert.ok(markdown.includes(`| \`${argument}\` |`), `${tool.name} argument ${argument}`);
      }
    }
  });
});
