// The one source of the "connect your agent" snippets: the developers guide (Markdown, via the
// {{CLIENT_SNIPPETS}} placeholder) and the welcome page after sign-up (HTML) both render this
// list, and test/clients/snippets.test.ts checks each against its client's configuration format.

export type ClientSnippet = {
  id: 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode' | 'mcp-remote';
  title: string;
  /** A sentence before the code: where it goes. */
  where: string;
  /** The code block's language, or undefined when there is nothing to paste but the URL. */
  language?: 'sh' | 'json';
  code?: string;
  /** A sentence after the code: what happens next. */
  then?: string;
};

/** The name the snippets give the server in each client's configuration. */
export const SERVER_NAME = 'agent-access';

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function clientSnippets(mcpUrl: string): ClientSnippet[] {
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      where: 'Run in a terminal:',
      language: 'sh',
      code: `claude mcp add --transport http ${SERVER_NAME} ${mcpUrl}`,
      then: 'Then run `/mcp` inside Claude Code and choose **Authenticate** to sign in.',
    },
    {
      id: 'claude-desktop',
      title: 'Claude Desktop and claude.ai',
      where: `Open **Settings → Connectors → Add custom connector**, name it \`Agent Access\`, and paste the URL \`${mcpUrl}\`.`,
      then: 'Choose **Connect** and sign in when the browser opens.',
    },
    {
      id: 'cursor',
      title: 'Cursor',
      where: 'Add to `~/.cursor/mcp.json` (or `.cursor/mcp.json` in a project):',
      language: 'json',
      code: json({ mcpServers: { [SERVER_NAME]: { url: mcpUrl } } }),
      then: 'Cursor opens the sign-in page when it first connects.',
    },
    {
      id: 'vscode',
      title: 'VS Code',
      where: 'Add to `.vscode/mcp.json` (or run **MCP: Add Server…** → HTTP):',
      language: 'json',
      code: json({ servers: { [SERVER_NAME]: { type: 'http', url: mcpUrl } } }),
      then: 'Start the server from the MCP view and sign in when asked.',
    },
    {
      id: 'mcp-remote',
      title: 'Clients that only start local (stdio) servers',
      where: 'Bridge with `mcp-remote`, e.g. in `claude_desktop_config.json`:',
      language: 'json',
      code: json({ mcpServers: { [SERVER_NAME]: { command: 'npx', args: ['-y', 'mcp-remote', mcpUrl] } } }),
      then: 'mcp-remote opens the sign-in page in your browser and keeps the tokens under `~/.mcp-auth`.',
    },
  ];
}

/** The snippets as Markdown sections (### per client), for the developers guide. */
export function snippetsMarkdown(mcpUrl: string): string {
  return clientSnippets(mcpUrl)
    .map((s) => [`### ${s.title}`, '', s.where, ...(s.code ? ['', `\`\`\`${s.language}`, s.code, '```'] : []), ...(s.then ? ['', s.then] : [])].join('\n'))
    .join('\n\n');
}
