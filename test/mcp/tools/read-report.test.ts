import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../../support/databases.ts';
import { EMAILS, errorCode, ok, seededStore, type Seeded } from '../support.ts';

type Out = { report: { report_id: string; section_count: number }; toc: { section_id: string; title: string; est_tokens: number }[]; sections: { section_id: string; markdown: string; offset: number; complete: boolean }[]; truncated: boolean; next_cursor: string | null; notice: string | null };
type List = { reports: { report_id: string; title: string; type: string }[] };

for (const dialect of dialectsUnderTest()) {
  describe(`read_report (${dialect})`, () => {
    let s: Seeded;
    let weekly: string;
    let qbr: string;
    before(async () => {
      s = await seededStore(dialect);
      const list = ok<List>('list_reports', await s.call(EMAILS.ada, 'list_reports', { limit: 100 }));
      weekly = list.reports.find((r) => r.type === 'weekly')!.report_id;
      qbr = list.reports.find((r) => r.type === 'custom')!.report_id;
    });
    after(() => s.cleanup());

    it('returns a small report whole, as markdown, with a table of contents', async () => {
      const result = await s.call(EMAILS.ada, 'read_report', { report_id: weekly });
      const out = ok<Out>('read_report', result);
      assert.equal(out.sections.length, out.report.section_count);
      assert.equal(out.truncated, false);
      assert.equal(out.toc.length, out.report.section_count);
      const text = result.content[0]!.type === 'text' ? result.content[0]!.text : '';
      assert.match(text, /^# /);
      assert.match(text, /## Summary/);
    });

    it('returns the table of contents first for a report over budget, then every section across pages', async () => {
      const args = { report_id: qbr, max_chars: 2000, format: 'json' };
      const first = ok<Out>('read_report', await s.call(EMAILS.ada, 'read_report', args));
      assert.ok(first.notice);
      assert.equal(first.sections.length, 0);
      assert.ok(first.toc.length > 5);
      const text = new Map<string, string>();
      let cursor = first.next_cursor;
      let pages = 0;
      while (cursor) {
        const page = ok<Out>('read_report', await s.call(EMAILS.ada, 'read_report', { ...args, cursor }));
        for (const sec of page.sections) text.set(sec.section_id, (text.get(sec.section_id) ?? '') + sec.markdown);
        cursor = page.next_cursor;
        pages += 1;
        assert.ok(pages < 500);
      }
      assert.deepEqual([...text.keys()], first.toc.map((t) => t.section_id));
      const whole = ok<Out>('read_report', await s.call(EMAILS.ada, 'read_report', { report_id: qbr, section: first.toc[1]!.title, max_chars: 40000 }));
      assert.equal(whole.sections[0]!.markdown, text.get(first.toc[1]!.section_id));
    });

    it('refuses an unknown section and an unknown report', async () => {
      assert.equal(errorCode(await s.call(EMAILS.ada, 'read_report', { report_id: weekly, section: 'nope' })), 'invalid_argument');
      assert.equal(errorCode(await s.call(EMAILS.ada, 'read_report', { report_id: 'rpt_nope' })), 'not_found');
    });
  });
}
