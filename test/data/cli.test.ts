// The seed and import commands through the real CLI.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';

describe('agent-access seed and import', () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'aas-cli-'));
    env = { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'silent' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('should seed with a progress bar and a rate, print the demo accounts, and refuse a second seed', async () => {
    const first = await runCli(['seed', '--meetings', '40'], env, 120_000);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /meetings \[#+-*\] [\d,]+\/[\d,]+ +[\d,]+\/s/);
    assert.match(first.stdout, /Northwind Software: 40 users/);
    assert.match(first.stdout, /mia\.member@northwind\.example\s+member/);
    const again = await runCli(['seed', '--meetings', '40'], env, 60_000);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exist/);
    assert.equal((await runCli(['seed', '--meetings', '2000000'], env)).code, 2);
  });

  it('should import into the named organization and report bad rows with file and line', async () => {
    const data = join(dir, 'import');
    rmSync(data, { recursive: true, force: true });
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'accounts.ndjson'), '{"id":"acc-x","domain":"hooli.example","name":"Hooli"}\n');
    writeFileSync(join(data, 'deals.ndjson'), '{"id":"d1","account_id":"acc-x","name":"Hooli","owner_email":"gus.member@globex.example","stage":"demo","status":"open","amount":1,"currency":"EUR","close_date":"2026-12-01"}\n{"id":"d2"}\n');
    const result = await runCli(['import', data, '--org', 'globex.example'], env, 60_000);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /imported\s+\S*accounts\.ndjson\s+\(1 rows\)/);
    assert.match(result.stdout, /REJECTED\s+\S*deals\.ndjson/);
    assert.match(result.stdout, /deals\.ndjson:2: /);
    const ambiguous = await runCli(['import', data], env);
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.stderr, /--org/);
  });
});
