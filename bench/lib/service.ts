// The service as a contender: which of its parts exist yet (so a workload can say "not run:
// <what is missing>" instead of failing), the environment it runs under in a bench, and the
// process spec that starts it (`agent-access serve`, exactly as `npm start` does).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessSpec } from './proc.ts';
import { ROOT } from './proc.ts';
import { variables } from '../../src/config/defaults.ts';

const read = (path: string) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : '');

export type Features = {
  seedCli: boolean;
  mcpEndpoint: boolean;
  tools: Set<string>;
  issueGrantTokens: boolean;
  tokenEndpoint: boolean;
  indexDocuments: boolean;
};

/** Reads the tree (not a running service): cheap, and tells exactly what is missing. */
export function detectFeatures(): Features {
  const toolsDir = join(ROOT, 'src/mcp/tools');
  const tools = new Set(
    existsSync(toolsDir)
      ? readdirSync(toolsDir)
          .filter((f) => f.endsWith('.ts'))
          .map((f) => f.replace(/\.ts$/, '').replaceAll('-', '_'))
      : [],
  );
  const app = read('src/http/app.ts');
  const authServer = existsSync(join(ROOT, 'src/auth-server')) ? walk(join(ROOT, 'src/auth-server')).map((f) => readFileSync(f, 'utf8')).join('\n') : '';
  return {
    seedCli: /\bseed\s*:/.test(read('src/main.ts')),
    mcpEndpoint: /mcp/i.test(app.replace(/^\s*\/\/.*$/gm, '')),
    tools,
    issueGrantTokens: /\bissueGrantTokens\b/.test(read('src/auth-server/index.ts')),
    tokenEndpoint: /['"`]\/oauth\/token['"`]/.test(authServer) && /auth-?server|oauth/i.test(app.replace(/^\s*\/\/.*$/gm, '')),
    indexDocuments: /\bindexDocuments\b/.test(read('src/search/index.ts')),
  };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** What a workload needs that the tree does not have yet, in words for the results table. */
export function missing(features: Features, needs: { seed?: boolean; mcp?: boolean; tools?: string[]; issue?: boolean; tokenEndpoint?: boolean; documents?: boolean }): string[] {
  const out: string[] = [];
  if (needs.seed && !features.seedCli) out.push('seed CLI (`agent-access seed --meetings N`, src/cli/seed.ts)');
  if (needs.mcp && !features.mcpEndpoint) out.push('POST /mcp mounted in src/http/app.ts');
  for (const tool of needs.tools ?? []) if (!features.tools.has(tool)) out.push(`tool ${tool} (src/mcp/tools/${tool.replaceAll('_', '-')}.ts)`);
  if (needs.issue && !features.issueGrantTokens) out.push('issueGrantTokens exported from src/auth-server/index.ts');
  if (needs.tokenEndpoint && !features.tokenEndpoint) out.push('POST /oauth/token mounted in src/http/app.ts');
  if (needs.documents && !features.indexDocuments) out.push('indexDocuments exported from src/search/index.ts');
  return out;
}

// Fixed secrets for bench databases only: the token issuer (a separate process) and the service
// must hash tokens with the same key.
export const BENCH_SECRETS = {
  HASH_SECRET: 'bench-only-hash-secret-not-for-production-use-0001',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** Every per-minute/per-hour rate limit the config declares, raised: a benchmark is one user at full speed. */
/** Every rate limit raised out of the way: a benchmark is one user at full speed. */
function unlimitedRates(): Record<string, string> {
  const names = Object.keys(variables).filter((n) => /_PER_(?:MINUTE|HOUR|SECOND)$/.test(n));
  return Object.fromEntries(names.map((n) => [n, '1000000']));
}

export function serviceEnv(databaseUrl: string, baseUrl: string, dataDir: string): Record<string, string> {
  return {
    APP_ENV: 'development',
    HOST: '127.0.0.1',
    BASE_URL: baseUrl,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    // Access logs off: the anchors log nothing, and a pipe to the harness is not what production pays.
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ...BENCH_SECRETS,
    ...unlimitedRates(),
  };
}

/** `agent-access serve` on a database; BASE_URL follows the port the harness picks. */
export function serviceProcess(databaseUrl: string, dataDir: string): ProcessSpec {
  return {
    args: ['src/main.ts', 'serve'],
    env: (port: number) => serviceEnv(databaseUrl, `http://127.0.0.1:${port}`, dataDir),
    readyPath: '/readyz',
    readyTimeoutMs: 120_000,
  };
}
