// Time arguments: RFC 3339 timestamps or YYYY-MM-DD dates (UTC), and named range presets.
import { z } from 'zod';
import { InvalidArgument } from './errors.ts';

const DAY = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

export const timeParam = (what: string) =>
  z.string().min(10).max(40).optional().describe(`${what}: an RFC 3339 timestamp with offset (2026-03-01T09:00:00Z) or a date YYYY-MM-DD (UTC).`);

export const RANGE_PRESETS = ['today', 'last_7_days', 'last_30_days', 'this_quarter', 'last_quarter', 'next_7_days'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** Parses a time argument; a bare date is the start of that day (or of the next day for an end). */
export function parseTime(field: string, value: string, edge: 'start' | 'end'): number {
  let ms: number;
  if (DATE.test(value)) {
    ms = Date.parse(`${value}T00:00:00Z`);
    if (edge === 'end' && Number.isFinite(ms)) ms += DAY;
  } else if (RFC3339.test(value)) {
    ms = Date.parse(value.replace(' ', 'T'));
  } else ms = NaN;
  if (!Number.isFinite(ms)) {
    throw new InvalidArgument(`"${field}" is not a valid time: ${JSON.stringify(value)}.`, 'Use an RFC 3339 timestamp with offset such as 2026-03-01T09:00:00Z, or a date such as 2026-03-01.');
  }
  return ms;
}

function quarterStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1);
}

export function presetWindow(preset: RangePreset, now: number): { from: number; to: number } {
  const today = Math.floor(now / DAY) * DAY;
  switch (preset) {
    case 'today':
      return { from: today, to: today + DAY };
    case 'last_7_days':
      return { from: now - 7 * DAY, to: now };
    case 'last_30_days':
      return { from: now - 30 * DAY, to: now };
    case 'next_7_days':
      return { from: now, to: now + 7 * DAY };
    case 'this_quarter': {
      const from = quarterStart(now);
      const d = new Date(from);
      return { from, to: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 3, 1) };
    }
    case 'last_quarter': {
      const to = quarterStart(now);
      return { from: quarterStart(to - DAY), to };
    }
  }
}

/** The window a list uses: a preset, explicit bounds, or the default of the last 30 days; ≤ 366 days. */
export function resolveWindow(args: { start?: string; end?: string; range?: RangePreset }, now: number): { from: number; to: number; source: string } {
  if (args.range && (args.start || args.end)) {
    throw new InvalidArgument('Give either "range" or "start"/"end", not both.', 'Drop "range" to use explicit bounds, or drop "start" and "end" to use the preset.');
  }
  if (args.range) return { ...presetWindow(args.range, now), source: `range ${args.range}` };
  if (!args.start && !args.end) return { from: now - 30 * DAY, to: now, source: 'default: the last 30 days' };
  const startMs = args.start ? parseTime('start', args.start, 'start') : undefined;
  // A start alone runs to now (at least 30 days, at most 366).
  const to = args.end ? parseTime('end', args.end, 'end') : Math.min(Math.max(startMs! + 30 * DAY, now), startMs! + 366 * DAY);
  const from = startMs ?? to - 30 * DAY;
  if (from >= to) throw new InvalidArgument('"start" must be before "end".', 'Swap the two values or widen the window.');
  if (to - from > 366 * DAY) throw new InvalidArgument('The time window spans more than 366 days.', 'Narrow "start"/"end" to at most 366 days and page through longer periods window by window.');
  return { from, to, source: 'start/end' };
}
