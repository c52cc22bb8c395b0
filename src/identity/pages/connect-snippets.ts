// How to connect an agent: the MCP URL and ready snippets per client, rendered from the one
// snippet source the developers guide also uses (src/site/snippets.ts).
import { html } from '../../http/html.ts';
import { clientSnippets } from '../../site/snippets.ts';

/** The snippets' inline Markdown (`code`, **bold**) as escaped HTML. */
function inline(text: string) {
  return text
    .split(/(`[^`]+`|\*\*[^*]+\*\*)/)
    .filter(Boolean)
    .map((part) => (part.startsWith('`') ? html`<code>${part.slice(1, -1)}</code>` : part.startsWith('**') ? html`<strong>${part.slice(2, -2)}</strong>` : html`${part}`));
}

export function connectSnippets(mcpUrl: string) {
  return html`<h2>Connect your agent</h2>
<p>MCP server URL: <code id="mcp-url">${mcpUrl}</code></p>
${clientSnippets(mcpUrl).map(
  (s) => html`<h3>${s.title}</h3>
<p>${inline(s.where)}</p>
${s.code ? html`<pre><code data-snippet="${s.id}">${s.code}</code></pre>` : ''}
${s.then ? html`<p>${inline(s.then)}</p>` : ''}`,
)}`;
}
