// read_report: a report's table of contents and its sections, one page within max_chars. A report
// over the budget answers with its table of contents first; long sections continue across pages.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, maxCharsParam } from '../params.ts';
import { cursorBinding, decodePosition, encodeCursor } from '../cursor.ts';
import { InvalidArgument, NotFound } from '../errors.ts';
import { appLink, estTokens, iso, ScopeSchema, scopeOf } from '../format/common.ts';
import { findVisibleReport, sectionIndex, sectionsFrom } from '../../store/sales/reports.ts';
import { foldCase } from '../../store/sales/like.ts';

/** (section index, character offset within it). */
const ReportPosition = z.tuple([z.number(), z.number()]);

const inputSchema = z.strictObject({
  report_id: z.string().min(1).max(120).describe('Report id (rpt_…) from list_reports.'),
  section: z.string().min(1).max(200).optional().describe('Only this section: its section_id or title from the table of contents.'),
  cursor: cursorParam('read_report'),
  max_chars: maxCharsParam(24_000, 40_000),
  format: z.enum(['markdown', 'json']).default('markdown').describe('Text block as readable markdown (default) or as JSON.'),
});

const outputSchema = z.object({
  report: z.object({ report_id: z.string(), title: z.string(), type: z.string(), period: z.object({ start: z.string(), end: z.string() }), generated_at: z.string(), section_count: z.number(), est_tokens: z.number(), url: z.string() }),
  toc: z.array(z.object({ index: z.number(), section_id: z.string(), title: z.string(), est_tokens: z.number() })),
  sections: z.array(z.object({ section_id: z.string(), title: z.string(), markdown: z.string(), offset: z.number().describe('Character offset of this part within the section.'), complete: z.boolean().describe('false when the section continues on the next page.') })),
  truncated: z.boolean(),
  next_cursor: z.string().nullable(),
  notice: z.string().nullable(),
  scope: ScopeSchema,
});

export const readReportTool = defineTool({
  name: 'read_report',
  title: 'Read report',
  description:
    'Reads a report from list_reports: its header, a table of contents with per-section token estimates, and the sections of this page within max_chars (default 24,000). A report larger than the budget first returns only its table of contents; then follow next_cursor, or ask for one section by id or title. format: markdown (default) or json.',
  inputSchema,
  outputSchema,
  annotations: readOnly('Read report'),
  async handler(args, ctx) {
    const db = ctx.store.db;
    const r = await findVisibleReport(db, ctx.principal, args.report_id);
    if (!r) throw new NotFound(`No report ${args.report_id} is visible to you.`, 'It does not exist or is outside your visibility. Call list_reports to find report ids.');
    const index = await sectionIndex(db, r.org_id, r.id);
    let scope = index;
    if (args.section) {
      const key = foldCase(args.section.trim().toWellFormed());
      scope = index.filter((s) => foldCase(s.section_id) === key || foldCase(s.title) === key);
      if (scope.length === 0) throw new InvalidArgument(`Report ${r.id} has no section ${JSON.stringify(args.section)}.`, `Sections: ${index.map((s) => `${s.section_id} (${s.title})`).join(', ')}.`);
    }
    const { cursor, ...query } = args;
    const binding = cursorBinding(ctx, 'read_report', query);
    const scopeChars = scope.reduce((s, x) => s + x.chars + x.title.length, 0);
    let pos: [number, number] | null = null;
    let notice: string | null = null;
    if (cursor) {
      pos = decodePosition(binding, cursor, ReportPosition);
    } else if (!args.section && scopeChars > args.max_chars) {
      notice = `This report (~${estTokens(scopeChars).toLocaleString('en-US')} tokens) is larger than max_chars, so this first answer holds only its table of contents. Follow next_cursor to read it page by page, or call read_report with "section" for one section.`;
    } else pos = [scope[0]?.idx ?? 0, 0];

    const sections: z.infer<typeof outputSchema>['sections'] = [];
    let next: [number, number] | null = notice && scope[0] ? [scope[0].idx, 0] : null;
    if (pos) {
      const [fromIdx, fromOffset] = pos;
      const wanted = scope.filter((s) => s.idx >= fromIdx);
      let budget = args.max_chars;
      let lastIdx = fromIdx;
      for (const s of wanted) {
        lastIdx = s.idx;
        budget -= s.chars - (s.idx === fromIdx ? fromOffset : 0);
        if (budget <= 0) break;
      }
      const rows = await sectionsFrom(db, r.org_id, r.id, fromIdx, lastIdx);
      budget = args.max_chars;
      for (const row of rows) {
        if (!scope.some((s) => s.idx === row.idx)) continue;
        const offset = row.idx === fromIdx ? Math.min(fromOffset, row.markdown.length) : 0;
        const rest = row.markdown.length - offset;
        if (rest <= budget - row.title.length) {
          sections.push({ section_id: row.section_id, title: row.title, markdown: row.markdown.slice(offset), offset, complete: true });
          budget -= rest + row.title.length;
          continue;
        }
        if (sections.length > 0 && budget < 500) {
          next = [row.idx, offset];
          break;
        }
        // Cut a long section at a line break when one is near, so the next page starts cleanly.
        let end = offset + Math.max(200, budget - row.title.length);
        const nl = row.markdown.lastIndexOf('\n', end);
        if (nl > offset + 200) end = nl + 1;
        sections.push({ section_id: row.section_id, title: row.title, markdown: row.markdown.slice(offset, end), offset, complete: false });
        next = [row.idx, end];
        break;
      }
      if (!next) {
        const after = scope.find((s) => s.idx > (rows[rows.length - 1]?.idx ?? Infinity));
        if (after) next = [after.idx, 0];
      }
    }
    const nextCursor = next ? encodeCursor(binding, next) : null;
    const structured = {
      report: { report_id: r.id, title: r.title, type: r.type, period: { start: r.period_start, end: r.period_end }, generated_at: iso(r.generated_at), section_count: r.section_count, est_tokens: estTokens(r.total_chars), url: appLink(ctx, 'reports', r.id) },
      toc: index.map((s) => ({ index: s.idx, section_id: s.section_id, title: s.title, est_tokens: estTokens(s.chars + s.title.length) })),
      sections,
      truncated: nextCursor !== null,
      next_cursor: nextCursor,
      notice,
      scope: scopeOf(ctx),
    };
    if (args.format === 'json') return { structured };
    const lines = [`# ${r.title}`, `_${r.type} report, ${r.period_start} to ${r.period_end}, generated ${iso(r.generated_at)}_`, ''];
    if (notice || sections.length === 0) {
      if (notice) lines.push(notice, '');
      lines.push('## Contents', ...index.map((s) => `${s.idx + 1}. ${s.title} (\`${s.section_id}\`, ~${estTokens(s.chars)} tokens)`), '');
    }
    for (const s of sections) lines.push(`## ${s.title}${s.offset > 0 ? ' (continued)' : ''}`, '', s.markdown, '');
    lines.push(nextCursor ? `[More follows: call read_report again with the same arguments and cursor "${nextCursor}".]` : '[End of report.]');
    return { structured, text: lines.join('\n') };
  },
});
