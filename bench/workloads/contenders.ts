// Contenders shared by the workloads: the service on a dataset (with a bearer token issued through
// the authorization server's own code), and the anchors.
import { join, resolve } from 'node:path';
import type { Contender, Load } from '../lib/compare.ts';
import type { Dataset } from '../lib/datasets.ts';
import { toolCall, type Era } from '../lib/mcp-requests.ts';
import { ROOT, runNode, type Running } from '../lib/proc.ts';
import { serviceEnv, serviceProcess } from '../lib/service.ts';

export const DEMO_USER = 'ada.admin@northwind.example';

export type Issued = { orgId: string; userId: string; clientId: string; pairs: { accessToken: string; refreshToken: string }[] };

/** Token pairs for a demo user, through issueGrantTokens, against the database a running service uses. */
export async function issueTokens(dataset: Dataset, dataDir: string, baseUrl: string, count: number, email = DEMO_USER): Promise<Issued> {
  const env = serviceEnv(dataset.databaseUrl, baseUrl, scratchDir(dataDir));
  const out = await runNode(['bench/service/issue-tokens.ts', '--email', email, '--count', String(count)], env, 300_000);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Issued;
}

export const scratchDir = (dataDir: string) => join(resolve(ROOT, dataDir), 'scratch');

export function serviceContender(
  name: string,
  label: string,
  dataset: Dataset,
  dataDir: string,
  load: (running: Running, bearer: string) => Promise<Load> | Load,
  email = DEMO_USER,
): Contender {
  return {
    name,
    label,
    role: 'subject',
    process: serviceProcess(dataset.databaseUrl, scratchDir(dataDir)),
    async load(running) {
      const issued = await issueTokens(dataset, dataDir, running.url, 1, email);
      const bearer = issued.pairs[0]?.accessToken;
      if (!bearer) throw new Error('no token issued');
      return load(running, bearer);
    },
  };
}

/** A tools/call load as the service and the MCP anchors take it. */
export function toolLoad(era: Era, tool: string, args: Record<string, unknown>, bearer?: string): Load {
  const req = toolCall(era, tool, args, { bearer });
  return { method: 'POST', path: req.path, headers: req.headers, body: req.body };
}

export function anchor(name: string, label: string, script: string, load: Load | ((running: Running) => Promise<Load>), env: Record<string, string> = {}): Contender {
  return {
    name,
    label,
    role: 'anchor',
    process: { args: [script], env, readyPath: '/healthz' },
    load: async (running) => (typeof load === 'function' ? load(running) : load),
  };
}
