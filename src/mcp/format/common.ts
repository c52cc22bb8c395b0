// Small formatting helpers shared by the tools: times, links, token estimates, the scope echo.
import { z } from 'zod';
import type { ToolContext } from '../define-tool.ts';
import { visibilityLabel } from '../../access/principal.ts';

export const iso = (ms: number) => new Date(ms).toISOString();
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

/** Keeps the longest prefix of items whose JSON fits the character budget (at least one item). */
export function fitItems<T>(items: T[], budgetChars: number): { kept: T[]; cut: boolean } {
  let used = 0;
  const kept: T[] = [];
  for (const item of items) {
    const size = JSON.stringify(item).length + 1;
    if (kept.length > 0 && used + size > budgetChars) return { kept, cut: true };
    used += size;
    kept.push(item);
  }
  return { kept, cut: false };
}

/** Budget of the items of one list page: ~8,000 tokens at the default limit, never near 20,000. */
export const LIST_BUDGET_CHARS = 56_000;
