// The connection snippets come from one source (src/site/snippets.ts), are valid for each
// client's configuration format, and appear verbatim on the developers guide and the welcome page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { clientSnippets, SERVER_NAME, type ClientSnippet } from '../../src/site/snippets.ts';
import { signInAsDemoUser } from '../support/demo-signin.ts';
import { startTestService, type TestService } from '../support/service.ts';

const MCP_URL = 'https://agents.example.com/mcp';
const snippet = (id: ClientSnippet['id'], url = MCP_URL) => {
  const found = clientSnippets(url).find((s) => s.id === id);
  assert.ok(found, id);
  return found;
};
const serverName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/);

// The configuration formats as each client documents them (remote HTTP servers only).
const CursorConfig = z.strictObject({ mcpServers: z.record(serverName, z.strictObject({ url: z.url(), headers: z.record(z.string(), z.string()).optional() })) });
const VsCodeConfig = z.strictObject({ servers: z.record(serverName, z.strictObject({ type: z.enum(['http', 'sse']), url: z.url(), headers: z.record(z.string(), z.string()).optional() })) });
const StdioConfig = z.strictObject({ mcpServers: z.record(serverName, z.strictObject({ command: z.string().min(1), args: z.array(z.string()), env: z.record(z.string(), z.string()).optional() })) });

describe('connection snippets', () => {
  it('Claude Code: `claude mcp add --transport http <name> <url>` parses as the CLI defines it', () => {
    const [claude, mcp, add, ...rest] = (snippet('claude-code').code ?? '').split(' ');
    assert.deepEqual([claude, mcp, add], ['claude', 'mcp', 'add']);
    const { values, positionals } = parseArgs({ args: rest, options: { transport: { type: 'string', short: 't' }, scope: { type: 'string', short: 's' } }, allowPositionals: true, strict: true });
    assert.equal(values.transport, 'http');
    assert.deepEqual(positionals, [SERVER_NAME, MCP_URL]);
  });

  it('Cursor: ~/.cursor/mcp.json with a remote server by url', () => {
    const config = CursorConfig.parse(JSON.parse(snippet('cursor').code ?? ''));
    assert.equal(config.mcpServers[SERVER_NAME]?.url, MCP_URL);
  });

  it('VS Code: .vscode/mcp.json with an http server', () => {
    const config = VsCodeConfig.parse(JSON.parse(snippet('vscode').code ?? ''));
    assert.deepEqual(config.servers[SERVER_NAME], { type: 'http', url: MCP_URL });
  });

  it('stdio-only clients: an mcp-remote bridge entry (its arguments are the ones test/clients/mcp-remote.test.ts runs)', () => {
    const config = StdioConfig.parse(JSON.parse(snippet('mcp-remote').code ?? ''));
    const entry = config.mcpServers[SERVER_NAME];
    assert.equal(entry?.command, 'npx');
    assert.deepEqual(entry?.args, ['-y', 'mcp-remote', MCP_URL]);
  });

  it('Claude Desktop and claude.ai: the URL to paste, no file', () => {
    const s = snippet('claude-desktop');
    assert.equal(s.code, undefined);
    assert.ok(s.where.includes(MCP_URL));
  });

  it('every snippet names the MCP URL it was given, and nothing else', () => {
    for (const s of clientSnippets('http://localhost:3000/mcp')) {
      const text = `${s.where} ${s.code ?? ''}`;
      assert.ok(text.includes('http://localhost:3000/mcp'), s.id);
      assert.ok(!text.includes(MCP_URL), s.id);
    }
  });
});

describe('snippets on the pages', () => {
  let service: TestService;
  let mcpUrl: string;
  before(async () => {
    service = await startTestService();
    mcpUrl = `${service.baseUrl}/mcp`;
  });
  after(async () => service?.close());

  it('the developers guide shows every snippet verbatim in a fenced block', async () => {
    const markdown = await (await fetch(`${service.baseUrl}/developers.md`)).text();
    for (const s of clientSnippets(mcpUrl)) {
      assert.ok(markdown.includes(`### ${s.title}`), s.id);
      if (s.code) assert.ok(markdown.includes(`\`\`\`${s.language}\n${s.code}\n\`\`\``), `${s.id} code block`);
    }
    assert.ok(!markdown.includes('{{'), 'no unfilled placeholder');
  });

  it('the welcome page after sign-in shows the same snippets', async () => {
    const cookie = await signInAsDemoUser(service.baseUrl, 'snippets@snippets-test.example');
    const page = await (await fetch(`${service.baseUrl}/welcome`, { headers: { cookie } })).text();
    const unescape = (s: string) => s.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
    for (const s of clientSnippets(mcpUrl)) {
      assert.ok(page.includes(`<h3>${s.title}</h3>`), s.id);
      if (!s.code) continue;
      const shown = new RegExp(`data-snippet="${s.id}">([^<]*)</code>`).exec(page)?.[1];
      assert.equal(unescape(shown ?? ''), s.code, s.id);
    }
  });
});
