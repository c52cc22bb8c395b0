// Parses the environment into a typed Config, once, at start. Every failure names the variable.
import { z } from 'zod';
import { variables, type VariableName } from './defaults.ts';
import { loadOrCreateDevSecrets } from './dev-secrets.ts';
import { isCidr } from '../http/client-address.ts';

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; poolMax: number };

export type Config = {
  env: 'development' | 'production';
  port: number;
  host: string;
  /** Origin of the API, no trailing slash. The OAuth issuer is exactly this string. */
  baseUrl: string;
  siteUrl: string;
  appUrl: string;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  log: { level: string; format: 'json' | 'pretty' };
  dataDir: string;
  secrets: { hash: string; encryptionKey: Buffer; generated: boolean };
  demoIdp: boolean;
  /** MCP_CONFORMANCE_MODE: the conformance suite's fixture endpoint (loopback only; never in production). */
  conformanceMode: boolean;
  google: { clientId: string; clientSecret: string } | undefined;
  microsoft: { clientId: string; clientSecret: string } | undefined;
  trialDays: number;
  /** Domains on the free-email list that sign-in accepts anyway (lower case). */
  freeEmailDomainsAllowed: string[];
  shutdownTimeoutMs: number;
  /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed; empty = none (AS-74). */
  trustedProxies: string[];
  oauth: {
    accessTokenTtlSeconds: number;
    codeTtlSeconds: number;
    refreshIdleTtlSeconds: number;
    refreshAbsoluteTtlSeconds: number;
    refreshGraceSeconds: number;
    clientTtlDays: number;
    /** Audit events older than this are deleted by the housekeeping job; 0 = kept forever. */
    auditRetentionDays: number;
    allowHttpLocalhostClientMetadata: boolean;
    rateLimits: { registerPerHour: number; requestsPerMinute: number };
  };
  mcp: { userRequestsPerMinute: number; clientRequestsPerMinute: number };
};

type Env = Record<string, string | undefined>;

const boolText = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const intIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `expected at least ${min}`).max(max, `expected at most ${max}`));

/** An origin: http(s), no path, query, fragment or credentials. The trailing slash is dropped. */
const origin = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: `expected an absolute http(s) URL such as https://agents.example.com, got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    ctx.addIssue({ code: 'custom', message: `expected http or https, got ${url.protocol}` });
    return z.NEVER;
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'expected an origin only (scheme, host and port), without path, query, fragment or credentials' });
    return z.NEVER;
  }
  return url.origin;
});

const databaseUrl = z.string().transform((value, ctx): { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string } => {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) {
      ctx.addIssue({ code: 'custom', message: 'expected sqlite:<path>, for example sqlite:./data/agent-access.db' });
      return z.NEVER;
    }
    return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not a valid postgres:// URL' });
      return z.NEVER;
    }
    return { kind: 'postgres', url: value };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  ctx.addIssue({
    code: 'custom',
    message: `unsupported ${scheme ? `scheme "${scheme}:"` : 'value'}; use sqlite:<path> or postgres://user@host:5432/db`,
  });
  return z.NEVER;
});

const schemas = {
  APP_ENV: z.enum(['development', 'production']),
  PORT: intIn(1, 65535),
  HOST: z.string().min(1),
  BASE_URL: origin,
  SITE_URL: origin.optional(),
  APP_URL: origin,
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_MAX: intIn(1, 1000),
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'expected redis://host:6379 or rediss://…').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  DATA_DIR: z.string().min(1),
  HASH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be the base64 encoding of exactly 32 random bytes')
    .optional(),
  DEMO_IDP: boolText.optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
  MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  TRIAL_DAYS: intIn(1, 365),
  FREE_EMAIL_DOMAINS_ALLOWED: z
    .string()
    .regex(/^\s*[a-z0-9.-]+(\s*,\s*[a-z0-9.-]+)*\s*$/i, 'expected comma-separated domains such as example.com,example.org')
    .transform((v) => v.split(',').map((d) => d.trim().toLowerCase()))
    .optional(),
  TRUSTED_PROXIES: z
    .string()
    .transform((v, ctx) => {
      const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
      for (const entry of entries) {
        if (!isCidr(entry)) {
          ctx.addIssue({ code: 'custom', message: `expected comma-separated IP addresses or CIDR ranges such as 10.0.0.0/8,::1, got ${JSON.stringify(entry)}` });
          return z.NEVER;
        }
      }
      return entries;
    })
    .optional(),
  SHUTDOWN_TIMEOUT_MS: intIn(0, 120_000),
  ACCESS_TOKEN_TTL_SECONDS: intIn(60, 86_400),
  AUTHORIZATION_CODE_TTL_SECONDS: intIn(10, 600),
  REFRESH_TOKEN_IDLE_TTL_SECONDS: intIn(60, 31_536_000),
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS: intIn(60, 63_072_000),
  REFRESH_GRACE_SECONDS: intIn(0, 30),
  OAUTH_CLIENT_TTL_DAYS: intIn(1, 3650),
  AUDIT_RETENTION_DAYS: intIn(0, 36_500),
  CLIENT_METADATA_ALLOW_HTTP_LOCALHOST: boolText,
  MCP_CONFORMANCE_MODE: boolText,
  OAUTH_REGISTER_PER_HOUR: intIn(1, 1_000_000),
  OAUTH_REQUESTS_PER_MINUTE: intIn(1, 1_000_000),
  MCP_USER_REQUESTS_PER_MINUTE: intIn(1, 1_000_000),
  MCP_CLIENT_REQUESTS_PER_MINUTE: intIn(1, 1_000_000),
} satisfies Record<VariableName, z.ZodType>;

type Parsed = { [K in VariableName]: z.output<(typeof schemas)[K]> };

function parseVariables(env: Env): Parsed {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(schemas) as VariableName[]) {
    const given = env[name];
    const raw = given === undefined || given === '' ? variables[name].default : given;
    const result = schemas[name].safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new ConfigError(name, issue?.message ?? 'invalid value');
    }
    out[name] = result.data;
  }
  return out as Parsed;
}

function pair(idName: VariableName, secretName: VariableName, id: string | undefined, secret: string | undefined) {
  if (!id && !secret) return undefined;
  if (!id) throw new ConfigError(idName, `is required when ${secretName} is set`);
  if (!secret) throw new ConfigError(secretName, `is required when ${idName} is set`);
  return { clientId: id, clientSecret: secret };
}

/** Named production checks: development conveniences that must never run in production. */
function refuseDevelopmentConveniences(p: Parsed, env: Env): void {
  if (p.DEMO_IDP === true) throw new ConfigError('DEMO_IDP', 'the demo identity provider is a development convenience and is refused with APP_ENV=production');
  if (!p.HASH_SECRET) throw new ConfigError('HASH_SECRET', 'is required with APP_ENV=production (generated secrets are for development only)');
  if (!p.ENCRYPTION_KEY) throw new ConfigError('ENCRYPTION_KEY', 'is required with APP_ENV=production (generated secrets are for development only)');
  if (!p.BASE_URL.startsWith('https://')) throw new ConfigError('BASE_URL', 'must be https with APP_ENV=production');
  if (!env.DATABASE_URL) throw new ConfigError('DATABASE_URL', 'must be set explicitly with APP_ENV=production (the embedded default is for development)');
  if (p.CLIENT_METADATA_ALLOW_HTTP_LOCALHOST) {
    throw new ConfigError('CLIENT_METADATA_ALLOW_HTTP_LOCALHOST', 'http://localhost client metadata documents are a development convenience and are refused with APP_ENV=production');
  }
  if (p.MCP_CONFORMANCE_MODE) {
    throw new ConfigError('MCP_CONFORMANCE_MODE', 'the conformance fixture endpoint answers without a token and is refused with APP_ENV=production');
  }
}

export function loadConfig(env: Env = process.env): Config {
  const p = parseVariables(env);
  const production = p.APP_ENV === 'production';
  if (production) refuseDevelopmentConveniences(p, env);

  const google = pair('GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', p.GOOGLE_CLIENT_ID, p.GOOGLE_CLIENT_SECRET);
  const microsoft = pair('MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET', p.MICROSOFT_CLIENT_ID, p.MICROSOFT_CLIENT_SECRET);

  let secrets: Config['secrets'];
  if (p.HASH_SECRET && p.ENCRYPTION_KEY) {
    secrets = { hash: p.HASH_SECRET, encryptionKey: Buffer.from(p.ENCRYPTION_KEY, 'base64'), generated: false };
  } else {
    const dev = loadOrCreateDevSecrets(p.DATA_DIR);
    secrets = {
      hash: p.HASH_SECRET ?? dev.hashSecret,
      encryptionKey: p.ENCRYPTION_KEY ? Buffer.from(p.ENCRYPTION_KEY, 'base64') : Buffer.from(dev.encryptionKey, 'base64'),
      generated: true,
    };
  }

  return {
    env: p.APP_ENV,
    port: p.PORT,
    host: p.HOST,
    baseUrl: p.BASE_URL,
    siteUrl: p.SITE_URL ?? p.BASE_URL,
    appUrl: p.APP_URL,
    database: p.DATABASE_URL.kind === 'postgres' ? { ...p.DATABASE_URL, poolMax: p.DATABASE_POOL_MAX } : p.DATABASE_URL,
    redisUrl: p.REDIS_URL,
    log: { level: p.LOG_LEVEL, format: p.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json') },
    dataDir: p.DATA_DIR,
    secrets,
    demoIdp: p.DEMO_IDP ?? !production,
    conformanceMode: p.MCP_CONFORMANCE_MODE,
    google,
    microsoft,
    trialDays: p.TRIAL_DAYS,
    freeEmailDomainsAllowed: p.FREE_EMAIL_DOMAINS_ALLOWED ?? [],
    shutdownTimeoutMs: p.SHUTDOWN_TIMEOUT_MS,
    trustedProxies: p.TRUSTED_PROXIES ?? [],
    oauth: {
      accessTokenTtlSeconds: p.ACCESS_TOKEN_TTL_SECONDS,
      codeTtlSeconds: p.AUTHORIZATION_CODE_TTL_SECONDS,
      refreshIdleTtlSeconds: p.REFRESH_TOKEN_IDLE_TTL_SECONDS,
      refreshAbsoluteTtlSeconds: p.REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
      refreshGraceSeconds: p.REFRESH_GRACE_SECONDS,
      clientTtlDays: p.OAUTH_CLIENT_TTL_DAYS,
      auditRetentionDays: p.AUDIT_RETENTION_DAYS,
      allowHttpLocalhostClientMetadata: p.CLIENT_METADATA_ALLOW_HTTP_LOCALHOST,
      rateLimits: { registerPerHour: p.OAUTH_REGISTER_PER_HOUR, requestsPerMinute: p.OAUTH_REQUESTS_PER_MINUTE },
    },
    mcp: { userRequestsPerMinute: p.MCP_USER_REQUESTS_PER_MINUTE, clientRequestsPerMinute: p.MCP_CLIENT_REQUESTS_PER_MINUTE },
  };
}
