// The client's address, for rate limits and audit events. X-Forwarded-For is spoofable by anyone,
// so it is read only when the socket peer is a configured proxy (TRUSTED_PROXIES, AS-74), and then
// from the right: each trusted hop appends the address it saw, so the rightmost address that is not
// itself a trusted proxy is the first one no trusted party vouches beyond (RFC 7239 §5.2 reasoning).
import { BlockList, isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppEnv } from './context.ts';

const UNKNOWN = 'unknown';

/** `10.0.0.0/8`, `::1`, `2001:db8::/32`, `192.0.2.7`: an address or a CIDR range. */
export function isCidr(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is the IPv4 address it carries. */
function normalise(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

export type ProxyTrust = { trusts(address: string): boolean };

export function proxyTrust(entries: readonly string[]): ProxyTrust {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(normalise(address), family);
    else list.addSubnet(normalise(address), Number(bits), family);
  }
  return {
    trusts(address) {
      const a = normalise(address);
      const family = isIP(a);
      if (!family || entries.length === 0) return false;
      return list.check(a, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

function socketPeer(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? UNKNOWN;
  } catch {
    // app.request() in tests has no socket.
    return UNKNOWN;
  }
}

/** The address a request came from, given which proxies are trusted. */
export function resolveClientAddress(peer: string, forwardedFor: string | undefined, trust: ProxyTrust): string {
  if (peer === UNKNOWN || !trust.trusts(peer) || !forwardedFor) return peer === UNKNOWN ? UNKNOWN : normalise(peer);
  const hops = forwardedFor.split(',').map((h) => normalise(h)).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) return normalise(peer); // a garbled chain is not believed past the proxy
    if (!trust.trusts(hop)) return hop;
  }
  return hops[0] ?? normalise(peer);
}

/** Computes the client address once per request (mounted first in app.ts). */
export function clientAddressMiddleware(trustedProxies: readonly string[]): MiddlewareHandler<AppEnv> {
  const trust = proxyTrust(trustedProxies);
  return async (c, next) => {
    c.set('clientAddress', resolveClientAddress(socketPeer(c), c.req.header('x-forwarded-for'), trust));
    await next();
  };
}

/** The client address of this request: what the middleware resolved, else the socket peer. */
export function clientAddress(c: Context): string {
  const resolved = (c as Context<AppEnv>).get('clientAddress');
  return resolved ?? (socketPeer(c) === UNKNOWN ? UNKNOWN : normalise(socketPeer(c)));
}
