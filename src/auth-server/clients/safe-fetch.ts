// Fetching a client ID metadata document without becoming an SSRF vector: the address the socket
// connects to is the one checked (a custom DNS lookup, so no rebinding between check and connect),
// public addresses only, no redirects, ≤ 5 KB, ≤ 5 s, JSON only.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export const MAX_DOCUMENT_BYTES = 5 * 1024;
export const FETCH_TIMEOUT_MS = 5000;

export class FetchRefused extends Error {
  override name = 'FetchRefused';
}

const blocked = new BlockList();
const v4: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const v6: [string, number][] = [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
];
for (const [net, prefix] of v4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of v6) blocked.addSubnet(net, prefix, 'ipv6');

/** Globally routable unicast only: no private, loopback, link-local, CGNAT, documentation or multicast ranges. */
export function isPublicAddress(address: string): boolean {
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it carries; other forms are refused.
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return isIP(mapped) === 4 && isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const isLoopbackAddress = (address: string) => address.startsWith('127.') || address === '::1';

function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const allowed = addresses.filter((a) => isPublicAddress(a.address) || (allowLoopback && isLoopbackAddress(a.address)));
      const first = allowed[0];
      if (!first) return callback(new FetchRefused(`${hostname} does not resolve to a public address`), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, first.address, first.family);
    });
  };
}

export type FetchedDocument = { body: string; cacheControl: string | undefined };

/** GET a small JSON document. `allowLoopback` is the development switch for http://localhost documents. */
export function fetchJsonDocument(url: URL, options: { allowLoopback: boolean }): Promise<FetchedDocument> {
  const client = url.protocol === 'https:' ? https : http;
  // Node skips `lookup` for IP-literal hosts, so those are checked here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) && !isPublicAddress(literal) && !(options.allowLoopback && isLoopbackAddress(literal))) {
    return Promise.reject(new FetchRefused(`${url.hostname} is not a public address`));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (!settled) reject(new FetchRefused(message));
      settled = true;
      req.destroy();
    };
    const req = client.get(url, { lookup: guardedLookup(options.allowLoopback), headers: { accept: 'application/json' }, timeout: FETCH_TIMEOUT_MS }, (res) => {
      res.on('error', () => {}); // the request's error handler reports failures
      if (res.statusCode !== 200) return fail(`the document answered HTTP ${res.statusCode} (redirects are not followed)`);
      const type = (res.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (type !== 'application/json' && !type.endsWith('+json')) return fail('the document is not application/json');
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) return fail(`the document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (!settled) resolve({ body: Buffer.concat(chunks).toString('utf8'), cacheControl: res.headers['cache-control'] });
        settled = true;
      });
    });
    req.on('timeout', () => fail(`the document did not arrive within ${FETCH_TIMEOUT_MS} ms`));
    req.on('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    // An overall deadline: `timeout` above only bounds socket inactivity.
    const deadline = setTimeout(() => fail(`the document did not arrive within ${FETCH_TIMEOUT_MS} ms`), FETCH_TIMEOUT_MS);
    deadline.unref();
    req.on('close', () => clearTimeout(deadline));
  });
}
