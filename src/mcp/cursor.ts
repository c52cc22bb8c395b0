// Opaque keyset cursors (tools.md rule 4). A cursor carries the position after the last row
// returned, and is bound by HMAC to the organization, the user, the tool and the query, so a
// cursor from another user, tool or filter set is refused instead of silently paging elsewhere.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ToolContext } from './define-tool.ts';
import { InvalidArgument } from './errors.ts';

export type CursorBinding = { key: string; orgId: string; userId: string; tool: string; query: unknown };

/** Positions several tools encode: (start time, id), (name or date, id), and an offset. */
export const TimeIdPosition = z.tuple([z.number(), z.string()]);
export const TextIdPosition = z.tuple([z.string(), z.string()]);
export const OffsetPosition = z.tuple([z.number().int().min(0)]);

/** What a tool's cursors are bound to: the caller (from the verified token), the tool, and the query they page. */
export function cursorBinding(ctx: ToolContext, tool: string, query: unknown): CursorBinding {
  return { key: ctx.cursorKey, orgId: ctx.principal.orgId, userId: ctx.principal.userId, tool, query };
}

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
function decodeCursor(b: CursorBinding, cursor: string, field = 'cursor'): unknown[] {
  const refuse = () =>
    new InvalidArgument(
      `The ${field} is not valid for this ${b.tool} query: it is malformed, expired, or was returned for different arguments or another user.`,
      `Call ${b.tool} again without "${field}" (and with the same other arguments) to restart from the first page.`,
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

/** The position inside a cursor, checked against the shape its tool encodes (e.g. TimeIdPosition). */
export function decodePosition<T extends z.ZodType<unknown[]>>(b: CursorBinding, cursor: string, shape: T, field = 'cursor'): z.output<T> {
  const parsed = shape.safeParse(decodeCursor(b, cursor, field));
  if (!parsed.success) throw new InvalidArgument(`The ${field} is malformed.`, `Call ${b.tool} again without "${field}" to restart.`);
  return parsed.data;
}

/**
 * next_cursor and has_more of a list page read with limit + 1 rows (one extra to know has_more),
 * of which the first `shown` are returned (fewer than limit when the size budget cut the page).
 */
export function pageOf<R>(b: CursorBinding, rows: readonly R[], limit: number, shown: number, positionOf: (row: R) => unknown[]): { next_cursor: string | null; has_more: boolean } {
  const hasMore = rows.length > limit || shown < Math.min(rows.length, limit);
  const last = shown > 0 ? rows[shown - 1] : undefined;
  return { next_cursor: hasMore && last !== undefined ? encodeCursor(b, positionOf(last)) : null, has_more: hasMore };
}
