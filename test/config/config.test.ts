import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.ts';
import { variables } from '../../src/config/defaults.ts';
import { runCli } from '../support/cli.ts';

const dataDir = () => mkdtempSync(join(tmpdir(), 'aas-cfg-'));
const production = {
  APP_ENV: 'production',
  BASE_URL: 'https://agents.example.com',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  HASH_SECRET: 'x'.repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env });
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('configuration was accepted');
}

describe('configuration', () => {
  it('should apply the documented defaults when nothing is set', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.baseUrl, 'http://localhost:3000');
    assert.equal(config.siteUrl, config.baseUrl);
    assert.deepEqual(config.database, { kind: 'sqlite', path: './data/agent-access.db' });
    assert.equal(config.env, 'development');
    assert.equal(config.demoIdp, true);
    assert.equal(config.secrets.generated, true);
  });

  it('should keep generated development secrets across restarts', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    assert.equal(first.secrets.hash, second.secrets.hash);
    assert.deepEqual(first.secrets.encryptionKey, second.secrets.encryptionKey);
    assert.equal(first.secrets.encryptionKey.length, 32);
  });

  it('should drop a trailing slash from BASE_URL so the issuer has none', () => {
    assert.equal(loadConfig({ DATA_DIR: dataDir(), BASE_URL: 'https://a.example.com/' }).baseUrl, 'https://a.example.com');
  });

  it('should name the variable when a value is wrong', () => {
    assert.equal(refusal({ PORT: 'abc' }).variable, 'PORT');
    assert.equal(refusal({ PORT: '70000' }).variable, 'PORT');
    assert.equal(refusal({ DATABASE_URL: 'mysql://x' }).variable, 'DATABASE_URL');
    assert.match(refusal({ DATABASE_URL: 'mysql://x' }).message, /unsupported scheme "mysql:"/);
    assert.equal(refusal({ BASE_URL: 'https://a.example.com/path' }).variable, 'BASE_URL');
    assert.equal(refusal({ APP_ENV: 'staging' }).variable, 'APP_ENV');
    assert.equal(refusal({ REDIS_URL: 'localhost:6379' }).variable, 'REDIS_URL');
    assert.equal(refusal({ GOOGLE_CLIENT_ID: 'id-only' }).variable, 'GOOGLE_CLIENT_SECRET');
  });

  it('should accept a complete production configuration and turn the demo provider off', () => {
    const config = loadConfig(production);
    assert.equal(config.env, 'production');
    assert.equal(config.demoIdp, false);
    assert.equal(config.secrets.generated, false);
  });

  it('should refuse each development convenience in production, naming it', () => {
    assert.equal(refusal({ ...production, DEMO_IDP: 'true' }).variable, 'DEMO_IDP');
    assert.equal(refusal({ ...production, HASH_SECRET: '' }).variable, 'HASH_SECRET');
    assert.equal(refusal({ ...production, ENCRYPTION_KEY: '' }).variable, 'ENCRYPTION_KEY');
    assert.equal(refusal({ ...production, BASE_URL: 'http://agents.example.com' }).variable, 'BASE_URL');
    assert.equal(refusal({ ...production, DATABASE_URL: '' }).variable, 'DATABASE_URL');
    assert.equal(refusal({ ...production, MCP_CONFORMANCE_MODE: 'true' }).variable, 'MCP_CONFORMANCE_MODE');
  });

  it('should document every variable in the README configuration table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(variables)) assert.match(readme, new RegExp('`' + name + '`'), `${name} is missing from the README`);
  });
});

describe('configuration errors at start', () => {
  for (const [name, value] of [
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
  ] as const) {
    it(`should exit 1 with one line naming ${name} when ${name}=${value}`, async () => {
      const result = await runCli(['serve'], { [name]: value, DATA_DIR: dataDir() });
      assert.equal(result.code, 1);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `expected one line, got: ${result.stderr}`);
      assert.match(lines[0]!, new RegExp(`^agent-access: configuration error: ${name}: `));
    });
  }

  it('should refuse to start in production with the demo identity provider on', async () => {
    const result = await runCli(['serve'], { ...production, DEMO_IDP: 'true', DATA_DIR: dataDir() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /DEMO_IDP: the demo identity provider is a development convenience/);
  });

  it('should list the commands with --help', async () => {
    const result = await runCli(['--help'], {});
    assert.equal(result.code, 0);
    assert.match(result.stdout, /serve/);
    assert.match(result.stdout, /migrate/);
  });
});
