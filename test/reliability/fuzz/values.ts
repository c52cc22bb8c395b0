// Building blocks for generated input: strings that have broken parsers before (unicode edge
// cases, control characters, encodings, injections, huge), JSON of every shape, deep nesting.
import fc from 'fast-check';

export const NASTY = [
  '', ' ', '\u0000', '\t\r\n', '\uFEFF', '\uD800', '\uDFFF', '\uD83D', 'e\u0301', '\u202Eevil', '\u200B', 'ﬁ', 'İ', 'ß', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '🏳️‍🌈', '中文',
  '%', '%00', '%ZZ', '%2F', '%252F', '+', '&', '=', '#', '?', '..', '../../etc/passwd', '..%2f..%2f', '\\', '"', "'", '`',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "' OR 1=1 --", '); drop table users; --', '${7*7}', '{{7*7}}',
  'null', 'undefined', 'true', 'NaN', '-1', '0', '1e309', '9007199254740993', '[]', '{}', '__proto__', 'constructor', 'prototype',
  'javascript:alert(1)', 'data:text/html,x', 'http://127.0.0.1/', 'https://evil.example/cb', 'http://[::1]:99999/', 'file:///etc/passwd',
  'aat_', 'art_', `aat_${'A'.repeat(43)}`, `art_${'B'.repeat(43)}`, `aac_${'C'.repeat(43)}`, 'a.b', 'a.b.c', 'eyJ9.eyJ9.', 'x'.repeat(3000),
];

/** Any string worth sending: random unicode, the nasty list, numbers, or very long. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 100_000 }).map((n) => 'x'.repeat(n)) },
);

/** A value for a header: node refuses control characters on the wire, so latin1 printable only. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '*', 'null', 'undefined', '\u00e9', 'a'.repeat(8000), 'Bearer', 'Basic', 'Basic !!!', 'Bearer aat_x', '2025-06-18', '2026-07-28', '1999-01-01'),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
);

/** JSON of any shape, including deep objects and odd numbers. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 2, arbitrary: anyString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, [], {}) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 400 }).map((depth) => nested(depth)) },
);

export function nested(depth: number): unknown {
  let v: unknown = 'core';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Bodies that are not the JSON they claim to be, or are JSON at absurd sizes and depths. */
export const rawJsonBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '{', '}', '[', '{"a":', '{"a":1,}', "{'a':1}", 'nul', 'NaN', '1e999999', '"\\uD800"', '"\\u0000"', '{"__proto__":{"admin":true}}', '\u0000', '\uFEFF{}', '{"a":1}{"b":2}', '[]', '[[]]', '{}'),
  fc.integer({ min: 1000, max: 60_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => '['.repeat(n)),
  fc.integer({ min: 70_000, max: 1_200_000 }).map((n) => JSON.stringify({ pad: 'x'.repeat(n) })),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined, 'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'APPLICATION/JSON', 'text/plain',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json-patch+json', '', '*/*', 'application/jsonx',
);

/** A percent-encoded query of the given pairs (repeats allowed), or a raw broken one. */
export function query(pairs: [string, string][]): string {
  // Lone surrogates cannot be UTF-8 encoded; raw encoded surrogates are in rawQuery instead.
  return pairs.map(([k, v]) => `${encodeURIComponent(k.toWellFormed())}=${encodeURIComponent(v.toWellFormed())}`).join('&');
}

export const rawQuery: fc.Arbitrary<string> = fc.constantFrom('%', '%ZZ', '&&&', '=', 'a=%E0%A4%A', 'a=%C0%AF', 'a=%00', 'a=%ED%A0%80', 'a[]=1&a[]=2', 'a=1&a=2', '?'.repeat(50), 'x='.concat('y'.repeat(9000)));
