// Small formatting helpers shared by the tools: times, links, token estimates, the scope echo.
import { z } from 'zod';
import type { ToolContext } from '../define-tool.ts';
import { visibilityLabel } from '../../access/principal.ts';

const DAY_MS = 86_400_000;
/** Years 1970–9999: the range whose ISO form is `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
const ISO_FAST_END = 253_402_300_800_000;
const dayPrefixes = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, the same string for every input. Lists format two or three
 * times per item (~50 a page); building the time of day by arithmetic on a cached date prefix
 * takes a fifth of Date's formatting.
 */
export function iso(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms >= ISO_FAST_END) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= 4096) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = rest - s * 1000;
  return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(s)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
export const estTokens = (chars: number) => Math.ceil(chars / 4);

/** A score as a percent of its maximum, one decimal (server-computed, tools.md); null without a maximum. */
export const percentOf = (total: number, max: number | null): number | null => (max ? Math.round((total / max) * 1000) / 10 : null);

/** `[HH:MM:SS]` offsets in transcripts. */
export function hms(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export const appLink = (ctx: ToolContext, kind: 'meetings' | 'deals' | 'reports' | 'agents' | 'teams', id: string) => `${ctx.appUrl}/${kind}/${encodeURIComponent(id)}`;

export const ScopeSchema = z
  .object({
    user_email: z.string(),
    role: z.enum(['admin', 'manager', 'member', 'viewer']),
    visibility: z.string(),
  })
  .describe('Whose visibility this result reflects, so "no data" can be told from "not allowed".');

export function scopeOf(ctx: ToolContext): z.infer<typeof ScopeSchema> {
  return { user_email: ctx.principal.email, role: ctx.principal.role, visibility: visibilityLabel(ctx.principal) };
}

export const PersonSchema = z.object({ name: z.string(), email: z.string().nullable() });

export const pageFields = {
  next_cursor: z.string().nullable().describe('Pass as "cursor" to get the next page; null at the end.'),
  has_more: z.boolean(),
};

/**
 * Keeps the longest prefix of items whose JSON fits the character budget (at least one item), with
 * the JSON of what it kept: measuring the page is serializing it, so listPage reuses that string.
 */
export function fitItems<T>(items: T[], budgetChars: number): { kept: T[]; cut: boolean; json: string } {
  // Usually the whole page fits: one serialization tells (its length is the sum below, plus one).
  const whole = JSON.stringify(items);
  if (items.length === 0 || whole.length - 1 <= budgetChars) return { kept: items, cut: false, json: whole };
  let used = 0;
  const kept: T[] = [];
  const parts: string[] = [];
  for (const item of items) {
    const json = JSON.stringify(item);
    const size = json.length + 1;
    if (kept.length > 0 && used + size > budgetChars) return { kept, cut: true, json: `[${parts.join(',')}]` };
    used += size;
    kept.push(item);
    parts.push(json);
  }
  return { kept, cut: false, json: whole };
}

/**
 * A list tool's output, `{ [key]: items, ...rest }`, with its JSON made from the items' JSON as
 * fitItems made it: the page is serialized once, not again by runTool (a 20 KB list_meetings page
 * took ~40 µs a time). The string is the one JSON.stringify makes of `structured`; runTool checks
 * that under the test runner.
 */
export function listPage<K extends string, T, R extends Record<string, unknown>>(key: K, page: { kept: T[]; json: string }, rest: R): { structured: Record<K, T[]> & R; json: string } {
  const tail = JSON.stringify(rest);
  const structured = { [key]: page.kept, ...rest } as Record<K, T[]> & R;
  return { structured, json: `{${JSON.stringify(key)}:${page.json}${tail === '{}' ? '}' : `,${tail.slice(1)}`}` };
}

/** Budget of the items of one list page: ~8,000 tokens at the default limit, never near 20,000. */
export const LIST_BUDGET_CHARS = 56_000;
