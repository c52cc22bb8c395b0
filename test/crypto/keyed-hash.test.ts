// The one keyed hash behind every stored secret: both call forms (the auth server's single value,
// identity's purpose + value) must keep producing the bytes already stored, or every token, code,
// client secret and session in a running database stops matching.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { keyedHash } from '../../src/crypto/keyed-hash.ts';
import { keyedHash as authServerHash } from '../../src/auth-server/secrets.ts';
import { keyedHash as identityHash } from '../../src/identity/secrets.ts';

const KEY = 'pinned-hash-key-0123456789abcdef';

describe('keyed hash (HMAC-SHA-256, base64url)', () => {
  test('a single value hashes exactly as the auth server always stored it: HMAC of the value', () => {
    const expected = createHmac('sha256', KEY).update('aat_pinned-value').digest('base64url');
    assert.equal(expected, 'XYi2R-TiW8Mj8SIqK8HNLCyH9aIQ7HA6zPE9hGBCtO4');
    assert.equal(keyedHash(KEY, 'aat_pinned-value'), expected);
    assert.equal(authServerHash(KEY, 'aat_pinned-value'), expected);
  });

  test('purpose and value hash exactly as identity always stored them: HMAC of purpose, NUL, value', () => {
    const expected = createHmac('sha256', KEY).update('session').update('\0').update('s3ss10n-id').digest('base64url');
    assert.equal(expected, 'ECZjT8T-ModGobTS69ljQ5AfesIoME7wXLLaI8pDQ-Q');
    assert.equal(keyedHash(KEY, 'session', 's3ss10n-id'), expected);
    assert.equal(identityHash(KEY, 'session', 's3ss10n-id'), expected);
  });

  test('non-ASCII values are hashed as UTF-8, as before', () => {
    const expected = createHmac('sha256', KEY).update('csrf:consent:x').update('\0').update('bïnding').digest('base64url');
    assert.equal(expected, '0PRbB74SmTiTPj7hgYzYkwMW8T8KytvU_VjBTdqG58w');
    assert.equal(identityHash(KEY, 'csrf:consent:x', 'bïnding'), expected);
  });

  test('the purpose separates uses of one value, and the key matters', () => {
    assert.notEqual(identityHash(KEY, 'session', 'v'), identityHash(KEY, 'login-state', 'v'));
    assert.notEqual(identityHash(KEY, 'session', 'v'), authServerHash(KEY, 'v'));
    assert.notEqual(authServerHash(KEY, 'v'), authServerHash(`${KEY}x`, 'v'));
  });
});
