// How to connect an agent: the MCP URL and ready snippets per client.
import { html } from '../../http/html.ts';

export function connectSnippets(mcpUrl: string) {
  const cursor = JSON.stringify({ mcpServers: { 'agent-access': { url: mcpUrl } } }, null, 2);
  const vscode = JSON.stringify({ servers: { 'agent-access': { type: 'http', url: mcpUrl } } }, null, 2);
  return html`<h2>Connect your agent</h2>
<p>MCP server URL: <code id="mcp-url">${mcpUrl}</code></p>
<h3>Claude Code</h3>
<pre><code>claude mcp add --transport http agent-access ${mcpUrl}</code></pre>
<h3>Claude Desktop and claude.ai</h3>
<p>Settings → Connectors → <em>Add custom connector</em>; name it “Agent Access” and paste the URL above.
You will be asked to sign in and approve access.</p>
<h3>Cursor</h3>
<p>Add to <code>~/.cursor/mcp.json</code>:</p>
<pre><code>${cursor}</code></pre>
<h3>VS Code</h3>
<p>Add to <code>.vscode/mcp.json</code> (or run <em>MCP: Add Server…</em> → HTTP):</p>
<pre><code>${vscode}</code></pre>`;
}
