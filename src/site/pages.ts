// The site's pages: one Markdown source each (src/site/pages/*.md), read once at start. Sources hold
// {{PLACEHOLDERS}} filled from configuration, so every URL a page shows comes from BASE_URL/SITE_URL
// and never from the request's Host header.
import { readFileSync } from 'node:fs';
import type { Config } from '../config/load.ts';
import { mcpRateRules } from '../mcp/index.ts';
import { SERVICE_VERSION } from './version.ts';
import { snippetsMarkdown } from './snippets.ts';

export type PageDefinition = {
  path: string;
  /** Source file under src/site/pages/. */
  file: string;
  title: string;
  /** One line for llms.txt, the sitemap's readers and <meta name="description">. */
  summary: string;
  /** Computed per request (e.g. the status page): never cached by shared caches. */
  live?: boolean;
};

export const PAGES: readonly PageDefinition[] = [
  { path: '/', file: 'home.md', title: 'Agent Access Service', summary: 'What the service is and how to connect an agent in one step.' },
  { path: '/developers', file: 'developers.md', title: 'Developers guide: connect an agent', summary: 'MCP URL, OAuth discovery, the mcp scope, client snippets, rate limits and errors.' },
  { path: '/developers/tools', file: 'tools.md', title: 'Tools reference', summary: 'The twelve read-only MCP tools, their arguments and results, generated from the tool definitions.' },
  { path: '/security', file: 'security.md', title: 'Security and data access', summary: 'What the mcp scope grants and does not grant; layered permissions by role and organization.' },
  { path: '/get-started', file: 'get-started.md', title: 'Sign up and start a trial', summary: 'Self-serve sign-up with a work email and an automatic trial license.' },
  { path: '/pricing', file: 'pricing.md', title: 'Pricing and trial terms', summary: 'Trial length, what it includes and what happens when it ends.' },
  { path: '/status', file: 'status.md', title: 'API status', summary: 'Current status of the MCP endpoint and the authorization server.', live: true },
];

const sources = new Map<string, string>(
  PAGES.map((page) => [page.file, readFileSync(new URL(`./pages/${page.file}`, import.meta.url), 'utf8')]),
);

export function findPage(path: string): PageDefinition | undefined {
  return PAGES.find((page) => page.path === path);
}

/** URL of the page's Markdown twin: a distinct address so a plain link (and a browser) can reach it. */
export function markdownPath(page: PageDefinition): string {
  return page.path === '/' ? '/index.md' : `${page.path}.md`;
}

export function pageForMarkdownPath(path: string): PageDefinition | undefined {
  return PAGES.find((page) => markdownPath(page) === path);
}

export type Placeholders = Record<string, string>;

function rate(rule: { points: number; durationSeconds: number }): string {
  const per = rule.durationSeconds === 60 ? 'minute' : rule.durationSeconds === 3600 ? 'hour' : `${rule.durationSeconds} seconds`;
  return `${rule.points} requests per ${per}`;
}

export function placeholders(config: Config): Placeholders {
  return {
    BASE_URL: config.baseUrl,
    SITE_URL: config.siteUrl,
    MCP_URL: `${config.baseUrl}/mcp`,
    // Client setup sections, from the one snippet source the welcome page also renders.
    CLIENT_SNIPPETS: snippetsMarkdown(`${config.baseUrl}/mcp`),
    VERSION: SERVICE_VERSION,
    TRIAL_DAYS: String(config.trialDays),
    // The limits the MCP endpoint enforces, from the same configuration, so the guide cannot drift.
    MCP_USER_RATE: rate(mcpRateRules(config).user),
    MCP_CLIENT_RATE: rate(mcpRateRules(config).client),
  };
}

/** Fills {{NAME}}; an unknown placeholder is a bug in a source file, so it fails loudly in tests. */
export function fill(template: string, values: Placeholders): string {
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`unknown placeholder ${whole} in a site page`);
    return value;
  });
}

export function pageSource(page: PageDefinition): string {
  const source = sources.get(page.file);
  if (source === undefined) throw new Error(`no source for ${page.file}`);
  return source;
}
