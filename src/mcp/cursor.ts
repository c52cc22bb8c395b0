// Opaque keyset cursors (tools.md rule 4). A cursor carries the position after the last row
// returned, and is bound by HMAC to the organization, the user, the tool and the query, so a
// cursor from another user, tool or filter set is refused instead of silently paging elsewhere.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidArgument } from './errors.ts';

export type CursorBinding = { key: string; orgId: string; userId: string; tool: string; query: unknown };

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function mac(b: CursorBinding, payload: string): Buffer {
  return createHmac('sha256', b.key).update(`${b.orgId}\n${b.userId}\n${b.tool}\n${canonical(b.query)}\n${payload}`).digest().subarray(0, 16);
}

export function encodeCursor(b: CursorBinding, position: unknown[]): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${mac(b, payload).toString('base64url')}`;
}

/** The position inside a cursor made by encodeCursor for the same binding; anything else is refused. */
export function decodeCursor(b: CursorBinding, cursor: string, restart: string): unknown[] {
  const refuse = () =>
    new InvalidArgument(
      `The cursor is not valid for this ${b.tool} query: it is malformed, expired, or was returned for different arguments or another user.`,
      `Call ${b.tool} again without "cursor" (and with the same other arguments) to restart from the first page. ${restart}`.trim(),
    );
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || cursor.length > 2000) throw refuse();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(b, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
  try {
    const position: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(position)) throw refuse();
    return position;
  } catch {
    throw refuse();
  }
}
