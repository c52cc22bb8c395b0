// utf8Body: the bytes of a response body, encoded once, equal to Node's own UTF-8 encoding for any
// text: ASCII, a few multi-byte characters (the buffer's slack), text that needs more bytes than
// the slack (the fallback), surrogate pairs, and a lone surrogate (encoded as U+FFFD, as Node does).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Body, utf8JsonTwice } from '../../src/http/body.ts';

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

// utf8JsonTwice: a JSON text sent quoted and as itself (a tool result's text block and its
// structuredContent), byte for byte what encoding the joined string would give, whether the text
// is quoted byte by byte (JSON.stringify's output) or falls back to JSON.stringify (anything else).
describe('utf8JsonTwice', () => {
  const head = '{"result":{"content":[{"type":"text","text":';
  const middle = '}],"structuredContent":';
  const tail = ',"_meta":{"name":"Agent Access — test"}},"jsonrpc":"2.0","id":7}';
  const json = (value: unknown) => JSON.stringify(value);
  const cases: Record<string, string> = {
    'empty text': '',
    'an ASCII page': json({ meetings: Array.from({ length: 40 }, (_, i) => ({ id: `m${i}`, title: `Call ${i}` })), has_more: true }),
    'quotes and backslashes in values': json({ note: 'He said "ship it" \\ then left', path: 'C:\\deals\\q3' }),
    'escaped control characters': json({ notes: 'line one\nline two\ttabbed\u0000nul\u001f' }),
    'em dashes (a two-byte string)': json({ title: 'Kickoff — Acme', items: ['—'.repeat(500)] }),
    'emoji and CJK': json({ title: '🎯 会議の記録 "quoted"', who: 'Zoë' }),
    'a lone surrogate, as JSON.stringify escapes it': json({ broken: 'before \ud800 after' }),
    'larger than the reused buffer': json({ text: 'Ω"\\'.repeat(30_000) }),
    'larger than any reused buffer': json({ text: 'x"'.repeat(600_000) }),
    'three-byte characters past the reused buffer': json({ text: '会"'.repeat(30_000) }),
    'three-byte characters past any reused buffer': json({ text: '会'.repeat(400_000) }),
    'DEL and line and paragraph separators, which JSON.stringify leaves raw': json({ text: 'a\u007fb\u2028c\u2029d' }),
    // Not JSON.stringify output: quoted by JSON.stringify instead, with the same bytes.
    'a raw control character': 'a\nb"c',
    'a raw lone surrogate': 'a\ud800"b',
  };
  const quotedByJsonStringify = new Set(['a raw control character', 'a raw lone surrogate']);
  for (const [name, text] of Object.entries(cases)) {
    it(`encodes ${name} as the joined string would be`, (t) => {
      const expected = Buffer.from(head + JSON.stringify(text) + middle + text + tail, 'utf8');
      // JSON.stringify's output is quoted byte by byte (the point of it); anything else by JSON.stringify.
      const stringify = t.mock.method(JSON, 'stringify');
      const bytes = utf8JsonTwice(head, text, middle, tail);
      assert.equal(stringify.mock.callCount(), quotedByJsonStringify.has(name) ? 1 : 0);
      stringify.mock.restore();
      assert.equal(bytes.byteLength, expected.byteLength);
      assert.deepEqual(Buffer.from(bytes), expected);
    });
  }

  it('encodes multi-byte text around the JSON too', () => {
    const text = json({ title: 'Zoë "Q3" — review' });
    const expected = Buffer.from(`{"à":${JSON.stringify(text)},"€":${text}}`, 'utf8');
    assert.deepEqual(Buffer.from(utf8JsonTwice('{"à":', text, ',"€":', '}')), expected);
  });

  it('gives each call its own bytes (the reused buffer is never handed out)', () => {
    const first = utf8JsonTwice('[', json({ a: 'first "one"' }), ',', ']');
    const copy = Buffer.from(first);
    utf8JsonTwice('[', json({ a: 'second, longer "one" — overwriting' }), ',', ']');
    assert.deepEqual(Buffer.from(first), copy);
  });
});
