// utf8Body: the bytes of a response body, encoded once, equal to Node's own UTF-8 encoding for any
// text: ASCII, a few multi-byte characters (the buffer's slack), text that needs more bytes than
// the slack (the fallback), surrogate pairs, and a lone surrogate (encoded as U+FFFD, as Node does).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Body } from '../../src/http/body.ts';

describe('utf8Body', () => {
  const cases: Record<string, string> = {
    empty: '',
    ascii: '{"meetings":[]}'.repeat(500),
    'a few em dashes': `${'{"title":"Kickoff — Acme"}'.repeat(300)}`,
    'CJK beyond the slack': '会議の記録'.repeat(2000),
    'emoji (surrogate pairs)': '🎯 pipeline review '.repeat(200),
    'a lone surrogate': `before \ud800 after`,
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`encodes ${name} exactly as Buffer.from does`, () => {
      const bytes = utf8Body(text);
      assert.deepEqual(Buffer.from(bytes), Buffer.from(text, 'utf8'));
      assert.equal(bytes.byteLength, Buffer.byteLength(text, 'utf8'));
    });
  }
});
