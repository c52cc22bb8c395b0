// Parameter parsing shared by the endpoints. RFC 6749 §3.1/§3.2: a parameter sent more than once is
// invalid_request, and an empty value is treated as absent (AS-8).
import type { Context } from 'hono';
import { InvalidRequest } from '../errors.ts';

export type Params = ReadonlyMap<string, string>;

export function singleValued(search: URLSearchParams): Params {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  for (const [name, value] of search) {
    if (seen.has(name)) throw new InvalidRequest(`Parameter ${name} is repeated`);
    seen.add(name);
    if (value !== '') out.set(name, value);
  }
  return out;
}

/** The form body of a POST (application/x-www-form-urlencoded only). */
export async function formParams(c: Context): Promise<Params> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new InvalidRequest('The request body must be application/x-www-form-urlencoded');
  const body = await c.req.text();
  if (body.length > 64 * 1024) throw new InvalidRequest('The request body is too large');
  return singleValued(new URLSearchParams(body));
}

export function required(params: Params, name: string): string {
  const value = params.get(name);
  if (value === undefined) throw new InvalidRequest(`Parameter ${name} is required`);
  return value;
}
