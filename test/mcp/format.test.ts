// The formatting helpers every list shares: iso() must write exactly what Date writes, and the
// size budget must cut a page at the same item whether or not the whole page fits at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fitItems, iso, listPage } from '../../src/mcp/format/common.ts';

describe('iso', () => {
  it('writes what Date#toISOString writes, for every millisecond of years 1970–9999 and the edges', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => iso(ms) === new Date(ms).toISOString()), { numRuns: 20_000 });
    for (const ms of [0, 999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 253_402_300_799_999, -1, -86_400_001, 253_402_300_800_000, 8.64e15]) {
      assert.equal(iso(ms), new Date(ms).toISOString(), String(ms));
    }
  });

  it('refuses what Date refuses', () => {
    assert.throws(() => iso(Number.NaN), RangeError);
    assert.throws(() => iso(8.64e15 + 1), RangeError);
  });
});

describe('fitItems', () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ id: `item_${i}`, text: 'x'.repeat(40 + i) }));
  const sizes = items.map((item) => JSON.stringify(item).length + 1);
  const upTo = (n: number) => sizes.slice(0, n).reduce((a, b) => a + b, 0);

  const fit = (list: typeof items, budget: number) => {
    const result = fitItems(list, budget);
    // The JSON it hands on is always the JSON of what it kept.
    assert.equal(result.json, JSON.stringify(result.kept));
    return result;
  };

  it('keeps the whole page when it fits exactly, and cuts one item short of it', () => {
    assert.deepEqual(fit(items, upTo(10)), { kept: items, cut: false, json: JSON.stringify(items) });
    const short = fit(items, upTo(10) - 1);
    assert.equal(short.cut, true);
    assert.equal(short.kept.length, 9);
  });

  it('keeps the longest prefix within the budget, and always at least one item', () => {
    for (let n = 1; n < 10; n++) {
      assert.equal(fit(items, upTo(n)).kept.length, n);
      assert.equal(fit(items, upTo(n + 1) - 1).kept.length, n);
    }
    assert.deepEqual(fit(items, 1), { kept: [items[0]], cut: true, json: JSON.stringify([items[0]]) });
    assert.deepEqual(fit([], 0), { kept: [], cut: false, json: '[]' });
  });
});

describe('listPage', () => {
  it('makes the JSON JSON.stringify makes of the page, with and without other fields', () => {
    const items = [{ id: 'a', title: 'Kickoff — "Acme"' }, { id: 'b', title: 'x\ny' }];
    for (const rest of [{}, { next_cursor: null, has_more: false, total: 2, filters: { q: 'a"b' }, scope: { role: 'admin' } }]) {
      for (const kept of [items, items.slice(0, 1), []]) {
        const page = listPage('meetings', { kept, json: JSON.stringify(kept) }, rest);
        assert.deepEqual(page.structured, { meetings: kept, ...rest });
        assert.equal(page.json, JSON.stringify(page.structured));
      }
    }
  });
});
