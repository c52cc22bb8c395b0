// Every configuration variable the service reads, with its documented default.
// This is the one place defaults live; `load.ts` parses the environment against it and the
// README's configuration table is checked against it by a test.

export type Variable = {
  /** Default as the environment would spell it; undefined = unset unless given. */
  default: string | undefined;
  description: string;
};

export const variables = {
  APP_ENV: {
    default: 'development',
    description:
      '`development` or `production`. Production refuses the development conveniences: the demo identity provider, generated secrets, an http BASE_URL and an implicit database.',
  },
  PORT: { default: '3000', description: 'TCP port to listen on (1–65535).' },
  HOST: { default: '127.0.0.1', description: 'Interface to listen on (`0.0.0.0` to accept remote connections).' },
  BASE_URL: {
    default: 'http://localhost:3000',
    description: 'Public origin of the API (OAuth issuer, MCP endpoint `{BASE_URL}/mcp`). No path, query or trailing slash.',
  },
  SITE_URL: {
    default: undefined,
    description: 'Public origin of the site pages; defaults to BASE_URL. When its host differs, site routes answer on that host.',
  },
  APP_URL: {
    default: 'https://app.example.com',
    description: 'The platform web app that record links (`url`, `crm_url`) point to.',
  },
  DATABASE_URL: {
    default: 'sqlite:./data/agent-access.db',
    description: '`sqlite:<path>` (embedded, WAL mode) or `postgres://user@host:5432/db`. Must be set explicitly in production.',
  },
  DATABASE_POOL_MAX: { default: '10', description: 'PostgreSQL connections per instance: half serve the list statements planned once, the rest everything else (at least one each).' },
  REDIS_URL: {
    default: undefined,
    description: '`redis://host:6379` for limits and short caches shared by all instances; unset = in-process memory.',
  },
  LOG_LEVEL: { default: 'info', description: 'pino level: fatal, error, warn, info, debug, trace or silent.' },
  LOG_FORMAT: {
    default: undefined,
    description: '`json` or `pretty`; unset = pretty when standard output is a terminal, JSON otherwise.',
  },
  DATA_DIR: { default: './data', description: 'Where development secrets (and the default SQLite file) are kept.' },
  HASH_SECRET: {
    default: undefined,
    description:
      'Key for the HMAC-SHA-256 hashes under which tokens, codes and client secrets are stored (≥ 32 chars). Generated under DATA_DIR in development; required in production.',
  },
  ENCRYPTION_KEY: {
    default: undefined,
    description:
      'Key (base64 of 32 bytes) that encrypts secrets at rest, such as SSO client secrets. Generated under DATA_DIR in development; required in production.',
  },
  DEMO_IDP: {
    default: undefined,
    description: 'Mount the built-in demo identity provider (`true`/`false`); unset = on in development, off in production. Refused in production.',
  },
  GOOGLE_CLIENT_ID: { default: undefined, description: 'Google OAuth client id (sign-in with Google).' },
  GOOGLE_CLIENT_SECRET: { default: undefined, description: 'Google OAuth client secret.' },
  MICROSOFT_CLIENT_ID: { default: undefined, description: 'Microsoft Entra application id (sign-in with Microsoft).' },
  MICROSOFT_CLIENT_SECRET: { default: undefined, description: 'Microsoft Entra client secret.' },
  TRIAL_DAYS: { default: '14', description: 'Length of the trial license a self-serve sign-up starts.' },
  FREE_EMAIL_DOMAINS_ALLOWED: {
    default: undefined,
    description:
      'Comma-separated email domains accepted for sign-in even though they are on the free-email-provider list (e.g. a company whose domain is listed by mistake).',
  },
  ACCESS_TOKEN_TTL_SECONDS: { default: '3600', description: 'Lifetime of an OAuth access token (60–86400 s; RFC 9700 wants short-lived, the target is ≤ 1 h).' },
  AUTHORIZATION_CODE_TTL_SECONDS: { default: '60', description: 'Lifetime of an authorization code (10–600 s; OAuth 2.1 caps it at 10 min).' },
  REFRESH_TOKEN_IDLE_TTL_SECONDS: { default: '2592000', description: 'A refresh token unused this long (30 days) is dead; each rotation renews it up to the absolute cap.' },
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS: { default: '7776000', description: 'A grant and its refresh tokens end this long (90 days) after the user consented, whatever the use.' },
  REFRESH_GRACE_SECONDS: { default: '30', description: 'Window (0–30 s) in which an identical retried refresh gets the same response instead of reuse detection.' },
  OAUTH_CLIENT_TTL_DAYS: { default: '30', description: 'Registered (DCR or metadata-document) clients unused this many days are removed by a periodic job.' },
  AUDIT_RETENTION_DAYS: {
    default: '365',
    description: 'Audit events of every kind (consents, tokens issued and refreshed, revocations, replays detected, clients registered and removed, sign-ins refused) older than this many days are deleted by the hourly job; 0 keeps them forever.',
  },
  OAUTH_REGISTER_PER_HOUR: {
    default: '600',
    description: 'Client registrations per hour from one IP address (20× that across all addresses). High on purpose: hosted clients register from shared ranges.',
  },
  MCP_USER_REQUESTS_PER_MINUTE: {
    default: '120',
    description: 'MCP requests per minute from one user (all of their clients together); over it, 429 with Retry-After.',
  },
  MCP_CLIENT_REQUESTS_PER_MINUTE: {
    default: '1200',
    description: 'MCP requests per minute from one OAuth client in one organization (all of its users there together; each organization has its own); over it, 429 with Retry-After.',
  },
  OAUTH_REQUESTS_PER_MINUTE: { default: '1200', description: 'Token and revocation requests per minute from one IP address, and separately per client_id.' },
  CLIENT_METADATA_ALLOW_HTTP_LOCALHOST: {
    default: 'false',
    description: 'Accept `http://localhost` client ID metadata documents (fetched without SSRF refusal of loopback) so tests can serve one. Refused in production.',
  },
  MCP_CONFORMANCE_MODE: {
    default: 'false',
    description: 'Mount the official MCP conformance suite\'s fixture server at `/conformance/mcp`, answering loopback clients only and without a token (used by `npm run conformance`). Refused in production.',
  },
  TRUSTED_PROXIES: {
    default: undefined,
    description:
      'Comma-separated addresses or CIDR ranges (e.g. `10.0.0.0/8,::1`) of reverse proxies whose `X-Forwarded-For` names the client address used by rate limits and audit events; unset = none (the socket peer is the client, the header is ignored). Issuer and URLs never come from forwarded or Host headers.',
  },
  SHUTDOWN_TIMEOUT_MS: {
    default: '10000',
    description: 'On SIGTERM/SIGINT, how long in-flight requests may finish before connections are closed.',
  },
} as const satisfies Record<string, Variable>;

export type VariableName = keyof typeof variables;
