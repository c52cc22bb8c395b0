// /llms.txt per the llms.txt proposal (llmstxt.org): one H1, a blockquote summary, prose without
// headings, then H2 sections that hold only link lists `- [name](url): notes`, the last one `## Optional`.
import type { Config } from '../config/load.ts';
import { PAGES } from './pages.ts';

type Link = { name: string; url: string; notes: string };

const list = (links: Link[]) => links.map((l) => `- [${l.name}](${l.url}): ${l.notes}`).join('\n');

export function renderLlmsTxt(config: Config): string {
  const site = config.siteUrl;
  const base = config.baseUrl;
  const mcp = `${base}/mcp`;
  const page = (path: string) => PAGES.find((p) => p.path === path);
  const pageLink = (path: string): Link => {
    const p = page(path);
    if (!p) throw new Error(`llms.txt links a page that does not exist: ${path}`);
    return { name: p.title, url: `${site}${path === '/' ? '/' : path}`, notes: p.summary };
  };

  const docs: Link[] = [
    pageLink('/developers'),
    pageLink('/developers/tools'),
    pageLink('/security'),
    { name: 'MCP server manifest', url: `${site}/.well-known/mcp.json`, notes: 'server.json (MCP registry format): name, version and the streamable-http remote.' },
    { name: 'OpenAPI description', url: `${site}/openapi.json`, notes: 'OpenAPI 3.0.3 description of the OAuth endpoints and POST /mcp.' },
    { name: 'OAuth authorization server metadata', url: `${base}/.well-known/oauth-authorization-server`, notes: 'RFC 8414 discovery document.' },
    { name: 'OAuth protected resource metadata', url: `${base}/.well-known/oauth-protected-resource`, notes: 'RFC 9728 document for the MCP endpoint.' },
  ];
  const signup: Link[] = [
    { name: 'Sign up with Google', url: `${base}/login_google/?source=llmstxt`, notes: 'work Google Workspace accounts only; starts a trial.' },
    { name: 'Sign up with Microsoft', url: `${base}/login_ms/?source=llmstxt`, notes: 'work Microsoft Entra accounts only; starts a trial.' },
    pageLink('/get-started'),
    pageLink('/pricing'),
  ];
  const optional: Link[] = [
    pageLink('/'),
    pageLink('/status'),
    { name: 'Sitemap', url: `${site}/sitemap.xml`, notes: 'every page of this site.' },
    { name: 'Server card', url: `${mcp}/server-card`, notes: 'MCP server card (draft SEP-2127), listed in /.well-known/ai-catalog.json.' },
    { name: 'security.txt', url: `${site}/.well-known/security.txt`, notes: 'how to report a vulnerability (RFC 9116).' },
  ];

  return [
    '# Agent Access Service',
    '',
    '> Read-only MCP access for AI agents to a sales coaching and enablement platform: meetings, transcripts, AI agent results, deal qualification, deals, teams, reports and indexed documents, bounded by the signed-in user\'s role and organization.',
    '',
    `Connect an MCP client to \`${mcp}\` (Streamable HTTP, JSON-RPC 2.0). Authorization is OAuth 2.0 authorization code with PKCE (S256 only): a request without a token gets 401 with a WWW-Authenticate header that points to the protected resource metadata, which names the authorization server at ${base}. Clients register themselves with dynamic client registration (RFC 7591) at ${base}/oauth/register or use a client ID metadata document (an https URL as client_id); no human issues keys.`,
    '',
    'There is one scope, `mcp`. It grants read access to twelve tools and nothing else: no writes, no administration, no billing. Every result is limited to what the authorizing user may see under their role and organization, so an agent never sees more than its user.',
    '',
    `Every page on ${site} returns Markdown instead of HTML when the request's Accept header prefers text/markdown, and each page also has a .md twin. Unknown paths answer 404 with links to follow.`,
    '',
    'An account is required. Sign-up is self-serve with a work email (personal email domains are refused) and starts a trial license at once, with no sales call.',
    '',
    '## Docs',
    '',
    list(docs),
    '',
    '## Sign up',
    '',
    list(signup),
    '',
    '## Optional',
    '',
    list(optional),
    '',
  ].join('\n');
}
