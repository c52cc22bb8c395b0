// DNS-rebinding defence (MCP transport spec: servers MUST validate Origin): a present Origin that
// is not allowed, or a Host that is not ours, is refused with 403. The SDK checks neither.
import type { Config } from '../../config/load.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export type OriginPolicy = { allowedOrigins: Set<string>; allowedHosts: Set<string>; allowLoopback: boolean };

export function originPolicy(config: Config, extraOrigins: string[] = []): OriginPolicy {
  const origins = [config.baseUrl, config.siteUrl, config.appUrl, ...extraOrigins];
  return {
    allowedOrigins: new Set(origins.map((o) => new URL(o).origin)),
    allowedHosts: new Set([config.baseUrl, config.siteUrl].map((o) => new URL(o).host)),
    // Development tools (the MCP Inspector, local web clients) run on loopback origins.
    allowLoopback: config.env === 'development',
  };
}

function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname);
}

/** undefined when allowed; otherwise the reason for the 403. */
export function refuseOriginOrHost(policy: OriginPolicy, origin: string | undefined, host: string | undefined): string | undefined {
  if (host !== undefined && !policy.allowedHosts.has(host)) {
    const hostname = host.replace(/:\d+$/, '');
    if (!(policy.allowLoopback && isLoopback(hostname))) return `Host ${host} is not served here.`;
  }
  if (origin === undefined) return undefined;
  if (policy.allowedOrigins.has(origin)) return undefined;
  try {
    const url = new URL(origin);
    if (policy.allowLoopback && isLoopback(url.hostname)) return undefined;
  } catch {
    return 'The Origin header is malformed.';
  }
  return `Origin ${origin} is not allowed to call this MCP endpoint.`;
}
