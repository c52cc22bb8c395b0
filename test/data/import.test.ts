// NDJSON import: validated row by row, bad rows reported with file and line, each file all or
// nothing, idempotent by id, and the imported records readable through the tools.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dialectsUnderTest, openTestStore, type TestDatabase } from '../support/databases.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { createOrganization } from '../../src/store/organizations.ts';
import { createUser } from '../../src/store/users.ts';
import { importDirectory } from '../../src/data/import.ts';
import { principalFromAuth } from '../../src/access/principal.ts';
import { runTool } from '../../src/mcp/run-tool.ts';
import { findTool } from '../../src/mcp/tools/index.ts';

const ndjson = (rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

function writeDataset(dir: string): void {
  const files: Record<string, unknown[]> = {
    accounts: [{ id: 'acc-1', domain: 'Hooli.example', name: 'Hooli' }],
    agents: [{ id: 'agt-card', name: 'Scorecard', category: 'coaching', type: 'scoring', scope: 'meeting', properties: [{ key: 'open', title: 'Opening', max_score: 5 }] }],
    deals: [{ id: 'deal-1', account_id: 'acc-1', name: 'Hooli expansion', owner_email: 'rep@initech.example', stage: 'demo', status: 'open', amount: 50000, currency: 'usd', close_date: '2026-12-31', crm: { system: 'hubspot', opportunity_id: '42', url: 'https://app.hubspot.com/deal/42' } }],
    meetings: [{ id: 'mtg-1', title: 'Hooli demo', start: '2026-11-10T15:00:00Z', end: '2026-11-10T16:00:00+00:00', status: 'completed', owner_email: 'rep@initech.example', deal_id: 'deal-1', account_id: 'acc-1', meeting_type: 'external', notes: { summary_md: 'Demo went well.' } }],
    participants: [
      { meeting_id: 'mtg-1', id: 1, email: 'rep@initech.example', name: 'Rita Rep', side: 'seller', talk_time_ms: 2000 },
      { meeting_id: 'mtg-1', id: 2, email: 'gavin@hooli.example', name: 'Gavin Belson', side: 'buyer', company: 'Hooli', talk_time_ms: 3000 },
    ],
    transcript_segments: [
      { meeting_id: 'mtg-1', idx: 0, start_ms: 0, end_ms: 2000, speaker: 'Rita Rep', participant_id: 1, text: 'Thanks for joining.' },
      { meeting_id: 'mtg-1', idx: 1, start_ms: 2500, end_ms: 5500, speaker: 'Gavin Belson', participant_id: 2, text: 'Show me the forecasting view.' },
    ],
    agent_results: [{ agent_id: 'agt-card', meeting_id: 'mtg-1', status: 'ok', generated_at: '2026-11-10T16:10:00Z', properties: [{ key: 'open', title: 'Opening', result_md: 'Clear agenda.', score: 4, max_score: 5 }] }],
    reports: [{ id: 'rpt-1', title: 'Week 45', type: 'weekly', period_start: '2026-11-03', period_end: '2026-11-09', generated_at: '2026-11-10T06:00:00Z', visibility: 'org', sections: [{ id: 'summary', title: 'Summary', markdown: 'All good.' }] }],
  };
  for (const [type, rows] of Object.entries(files)) writeFileSync(join(dir, `${type}.ndjson`), ndjson(rows));
}

for (const dialect of dialectsUnderTest()) {
  describe(`NDJSON import (${dialect})`, () => {
    let store: Store;
    let database: TestDatabase;
    let cleanup: () => Promise<void>;
    let orgId: string;
    let userId: string;
    let dir: string;
    before(async () => {
      ({ store, database, cleanup } = await openTestStore(dialect));
      const org = await createOrganization(store.db, { name: 'Initech', domains: ['initech.example'], license: { plan: 'paid', trialEndsAt: null, seats: 5 } });
      orgId = org.id;
      userId = (await createUser(store.db, { orgId, email: 'rep@initech.example', name: 'Rita Rep', role: 'member' })).id;
      dir = mkdtempSync(join(tmpdir(), 'aas-import-'));
      writeDataset(dir);
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await cleanup();
    });

    const count = async (table: 'accounts' | 'deals' | 'meetings' | 'participants' | 'transcript_segments' | 'agent_results' | 'report_sections') =>
      Number((await store.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('org_id', '=', orgId).executeTakeFirstOrThrow()).n);

    it('imports every file and is idempotent by id', async () => {
      for (let round = 0; round < 2; round++) {
        const reports = await importDirectory(store, orgId, dir);
        const present = reports.filter((r) => r.status !== 'absent');
        assert.ok(present.every((r) => r.status === 'imported'), JSON.stringify(present.filter((r) => r.status !== 'imported')));
        assert.equal(await count('meetings'), 1);
        assert.equal(await count('participants'), 2);
        assert.equal(await count('transcript_segments'), 2);
        assert.equal(await count('report_sections'), 1);
      }
      const m = await store.db.selectFrom('meetings').selectAll().where('org_id', '=', orgId).executeTakeFirstOrThrow();
      assert.equal(m.has_transcript, 1);
      assert.equal(m.segment_count, 2);
      assert.equal(m.owner_id, userId);
    });

    // SQLite has one writer per file, which waits by its busy timeout: a PostgreSQL case only.
    if (dialect === 'postgres') it('lets a file wait for rows another writer holds longer than a request query may take', async () => {
      // Another writer holds the imported meeting's row for 10.5 s: past the request pool's 10 s
      // query timeout, which used to cut the waiting upsert off.
      await importDirectory(store, orgId, dir);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = store.db.transaction().execute(async (trx) => {
        await trx.selectFrom('meetings').select('id').where('org_id', '=', orgId).where('id', '=', 'mtg-1').forUpdate().execute();
        locked();
        await held;
      });
      await lockTaken;
      const outcome = Promise.allSettled([importDirectory(store, orgId, dir)]);
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      release();
      await holder;
      const [result] = await outcome;
      assert.equal(result!.status, 'fulfilled', result!.status === 'rejected' ? String(result!.reason) : '');
      const reports = result!.status === 'fulfilled' ? result!.value : [];
      assert.ok(reports.filter((r) => r.status !== 'absent').every((r) => r.status === 'imported'), JSON.stringify(reports));
    });

    it('imports into one organization from several processes at once, each participant keeping its meeting\u2019s start', async () => {
      // Two imports of the same meetings, in opposite orders and with different starts: each file's
      // upsert locks its rows in file order, and a participant's insert reads its meeting's row (its
      // start is copied, 0011), so without turns one import waited for the other's rows while
      // holding rows the other waited for, and PostgreSQL aborted it (deadlock detected within the
      // three rounds, in every run without turns).
      // On PostgreSQL each import has a store of its own, as separate processes would; on SQLite, one
      // writer, the outcome is checked all the same.
      const own = dialect === 'postgres' ? [openStore(database.config), openStore(database.config)] : [];
      const importers = own.length ? own : [store, store];
      const dirs: string[] = [];
      const meetings = 150;
      const write = (start: string, reversed: boolean) => {
        const d = mkdtempSync(join(tmpdir(), 'aas-import-busy-'));
        dirs.push(d);
        const order = Array.from({ length: meetings }, (_, i) => (reversed ? meetings - 1 - i : i));
        const at = (i: number, minutes: number) => new Date(Date.parse(start) + i * 3_600_000 + minutes * 60_000).toISOString();
        writeFileSync(join(d, 'meetings.ndjson'), ndjson(order.map((i) => ({ id: `busy-${i}`, title: `Busy ${i}`, start: at(i, 0), end: at(i, 30), status: 'completed', owner_email: 'rep@initech.example', meeting_type: 'internal' }))));
        writeFileSync(join(d, 'participants.ndjson'), ndjson(order.flatMap((i) => [1, 2].map((id) => ({ meeting_id: `busy-${i}`, id, email: 'rep@initech.example', name: 'Rita Rep', side: 'seller' })))));
        return d;
      };
      try {
        for (let round = 0; round < 3; round++) {
          const [east, west] = [write(`2026-0${round + 1}-01T09:00:00Z`, false), write(`2026-0${round + 4}-01T09:00:00Z`, true)];
          const imports = await Promise.allSettled([importDirectory(importers[0]!, orgId, east), importDirectory(importers[1]!, orgId, west)]);
          assert.deepEqual(
            imports.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value.filter((f) => f.status !== 'absent').map((f) => `${f.type} ${f.status}`).join(', '))),
            ['meetings imported, participants imported', 'meetings imported, participants imported'],
            `round ${round}`,
          );
          const copies = await store.db
            .selectFrom('participants as p')
            .innerJoin('meetings as m', (j) => j.onRef('m.org_id', '=', 'p.org_id').onRef('m.id', '=', 'p.meeting_id'))
            .select(['p.meeting_id', 'p.id', 'p.start_at as copied', 'm.start_at as start'])
            .where('p.org_id', '=', orgId)
            .where('p.meeting_id', 'like', 'busy-%')
            .execute();
          assert.equal(copies.length, meetings * 2, `round ${round}`);
          assert.deepEqual(copies.filter((c) => Number(c.copied) !== Number(c.start)), [], `round ${round}: participants whose start is not their meeting's`);
        }
      } finally {
        await Promise.all(own.map((s) => s.close()));
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
      }
    });

    it('makes imported records readable through the tools', async () => {
      const p = await principalFromAuth(store.db, { userId, orgId });
      assert.ok(p.ok);
      const result = await runTool(findTool('get_meeting_transcript')!, { meeting_id: 'mtg-1' }, { store, principal: p.principal, appUrl: 'https://app.example.com', cursorKey: 'k'.repeat(32), now: Date.now() });
      assert.notEqual(result.isError, true);
      assert.match(result.content[0]!.type === 'text' ? result.content[0]!.text : '', /\[00:00:02\] Gavin Belson \(buyer\): Show me the forecasting view\./);
    });

    it('rejects a file with bad rows whole, reporting each with file and line', async () => {
      const bad = mkdtempSync(join(tmpdir(), 'aas-import-bad-'));
      try {
        writeFileSync(
          join(bad, 'deals.ndjson'),
          ndjson([
            { id: 'deal-2', account_id: 'acc-1', name: 'Fine', owner_email: 'rep@initech.example', stage: 'demo', status: 'open', amount: 1, currency: 'USD', close_date: '2026-12-01' },
            { id: 'deal-3', account_id: 'acc-1', name: 'Negative', owner_email: 'rep@initech.example', stage: 'demo', status: 'open', amount: -5, currency: 'USD', close_date: '2026-12-01' },
            '{"id": "deal-4", broken',
            '',
            { id: 'deal-5', account_id: 'acc-404', name: 'Orphan', owner_email: 'ghost@initech.example', stage: 'demo', status: 'open', amount: 1, currency: 'USD', close_date: '2026-12-01' },
            // PostgreSQL cannot store U+0000 and SQLite's text search stops at it: refused on both.
            { id: 'deal-6', account_id: 'acc-1', name: 'Nul\u0000 in the name', owner_email: 'rep@initech.example', stage: 'demo', status: 'open', amount: 1, currency: 'USD', close_date: '2026-12-01', crm: { system: 'none', custom_fields: { note: 'x\u0000' } } },
          ]),
        );
        const before = await count('deals');
        const reports = await importDirectory(store, orgId, bad);
        const deals = reports.find((r) => r.type === 'deals')!;
        assert.equal(deals.status, 'rejected');
        // Rows that fail to parse first, then references.
        assert.deepEqual(deals.issues.map((i) => i.line), [2, 3, 6, 5]);
        assert.ok(deals.issues.every((i) => i.file.endsWith('deals.ndjson')));
        assert.match(deals.issues[0]!.message, /amount/);
        assert.match(deals.issues[1]!.message, /JSON/);
        assert.match(deals.issues[2]!.message, /^name: holds U\+0000/);
        assert.match(deals.issues[3]!.message, /ghost@initech\.example/);
        assert.equal(await count('deals'), before, 'nothing of the rejected file is written');
      } finally {
        rmSync(bad, { recursive: true, force: true });
      }
    });
  });
}
