// W4 token endpoint: the refresh_token grant with rotation, every connection following its own
// chain (each response's refresh token is the next request's). Anchor: oidc-provider configured
// for the same flow (public client, opaque access tokens for the MCP resource, rotation), once on
// a node:sqlite adapter (the service's database kind) and once on an unbounded in-memory adapter.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseResult, Contender, Load } from '../lib/compare.ts';
import { runCase, warmupLoads } from '../lib/compare.ts';
import { ensureDataset, scratchCopy, postgresReachable, type Dataset, type Dialect } from '../lib/datasets.ts';
import type { Running } from '../lib/proc.ts';
import { serviceProcess } from '../lib/service.ts';
import { issueTokens, scratchDir } from './contenders.ts';
import { pending, ratioShown, type BenchEnv, type Goal, type Workload, type WorkloadResult } from './types.ts';

const CONNECTIONS = 32;
/** Live tokens: each run (a round or a load of the warm-up) loses the ones in flight when it stops (up to one per connection). */
let TOKENS = CONNECTIONS * 8;
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

function refreshLoad(tokens: string[], clientId: string): Load {
  return { method: 'POST', path: '/oauth/token', headers: FORM_HEADERS, refreshChain: { tokens, form: { grant_type: 'refresh_token', client_id: clientId } } };
}

/** One refresh before measuring: must answer 200 with a new refresh token, which replaces the spent one. */
async function probeRefresh(running: Running, load: Load): Promise<void> {
  const chain = load.refreshChain;
  const token = chain?.tokens.shift();
  if (!chain || !token) throw new Error('no refresh tokens');
  const res = await fetch(running.url + load.path, { method: 'POST', headers: load.headers, body: new URLSearchParams({ ...chain.form, refresh_token: token }), signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`refresh probe answered ${res.status}: ${text.slice(0, 300)}`);
  const next = (JSON.parse(text) as { refresh_token?: string }).refresh_token;
  if (!next || next === token) throw new Error(`refresh probe did not rotate the refresh token: ${text.slice(0, 300)}`);
  chain.tokens.unshift(next);
}

async function serviceRefresh(dialect: Dialect, dataset: Dataset, env: BenchEnv): Promise<Contender> {
  const databaseUrl = await scratchCopy(dataset, env.options.dataDir, `w4-${dialect}`);
  const db = { ...dataset, databaseUrl };
  return {
    name: `service-${dialect}`,
    label: `service (${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
    role: 'subject',
    process: serviceProcess(databaseUrl, scratchDir(env.options.dataDir)),
    async load(running) {
      const issued = await issueTokens(db, env.options.dataDir, running.url, TOKENS);
      return refreshLoad(
        issued.pairs.map((p) => p.refreshToken),
        issued.clientId,
      );
    },
    probe: probeRefresh,
  };
}

function oidcAnchor(name: string, label: string, sqlitePath?: string): Contender {
  return {
    name,
    label,
    role: 'anchor',
    process: { args: ['bench/anchors/oidc-refresh.ts'], env: sqlitePath ? { OIDC_SQLITE: sqlitePath } : {}, readyPath: '/healthz' },
    async load(running) {
      const res = await fetch(`${running.url}/bench/tokens?count=${TOKENS}`);
      if (res.status !== 200) throw new Error(`minting anchor tokens answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      const { clientId, tokens } = (await res.json()) as { clientId: string; tokens: string[] };
      return refreshLoad(tokens, clientId);
    },
    probe: probeRefresh,
    cleanup: async () => {
      if (sqlitePath) for (const s of ['', '-wal', '-shm']) rmSync(sqlitePath + s, { force: true });
    },
  };
}

export const w4: Workload = {
  id: 'W4',
  title: 'token endpoint: refresh_token grant with rotation',
  async run(env: BenchEnv): Promise<WorkloadResult> {
    const notes: string[] = [
      'anchors: oidc-provider 9 with a node:sqlite adapter (bench/anchors/oidc-sqlite-adapter.ts: same database kind, pragmas and checkpoint worker as the service; the goal is measured against this one) and with an unbounded in-memory adapter (its own is a 1,000-entry LRU that evicts live grants under load); no PostgreSQL adapter',
      `${CONNECTIONS} connections; every request sends a live refresh token and the rotated one goes back into play`,
    ];
    TOKENS = CONNECTIONS * (env.compare.rounds + warmupLoads(env.compare) + 3);
    const lacking = env.options.anchorsOnly ? ['--anchors-only'] : [];
    const contenders: Contender[] = [];
    if (lacking.length === 0) {
      contenders.push(await serviceRefresh('sqlite', await ensureDataset(env.options.dataDir, { dialect: 'sqlite', meetings: 10 }, env.log), env));
      const pgProblem = await postgresReachable();
      if (pgProblem) notes.push(`PostgreSQL skipped: ${pgProblem}`);
      else contenders.push(await serviceRefresh('postgres', await ensureDataset(env.options.dataDir, { dialect: 'postgres', meetings: 10 }, env.log), env));
    } else {
      notes.unshift(`service not run: ${lacking.join('; ')} — anchors only`);
    }
    const sqlitePath = join(scratchDir(env.options.dataDir), 'w4-oidc-provider.db');
    for (const s of ['', '-wal', '-shm']) rmSync(sqlitePath + s, { force: true });
    contenders.push(oidcAnchor('oidc-sqlite', 'oidc-provider (SQLite adapter)', sqlitePath), oidcAnchor('oidc-memory', 'oidc-provider (in-memory adapter)'));
    const result: CaseResult = await runCase(
      {
        id: 'W4',
        title: 'POST /oauth/token grant_type=refresh_token',
        connections: CONNECTIONS,
        contenders,
        ratios: [
          { label: 'service (SQLite) / oidc-provider (SQLite) req/s', a: 'service-sqlite', b: 'oidc-sqlite', metric: 'rps' },
          { label: 'service (SQLite) / oidc-provider (memory) req/s', a: 'service-sqlite', b: 'oidc-memory', metric: 'rps' },
          { label: 'service (PostgreSQL) / oidc-provider (SQLite) req/s', a: 'service-postgres', b: 'oidc-sqlite', metric: 'rps' },
        ],
      },
      env.compare,
    );
    const same = result.ratios.find((r) => r.label.startsWith('service (SQLite) / oidc-provider (SQLite)'));
    const goals: Goal[] = [
      same
        ? { text: '≥ 1.5× oidc-provider throughput (same database kind: SQLite)', met: same.value.median >= 1.5, detail: `${ratioShown(same.value.median, 1.5)}× (${same.value.min.toFixed(2)}–${same.value.max.toFixed(2)})` }
        : pending('≥ 1.5× oidc-provider throughput (same database kind: SQLite)'),
    ];
    const errors = result.contenders.filter((x) => x.error).map((x) => `${x.label}: ${x.error}`);
    const status = lacking.length || errors.length ? 'partial' : 'ran';
    return { id: this.id, title: this.title, status, notes: [...notes, ...errors], cases: [result], goals };
  },
};
