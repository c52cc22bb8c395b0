// Values looked up for a bearer token and reused in process (src/access/reused-lookup.ts): one
// lookup per key at a time, a background lookup in the last part of a value's reuse, and never a
// value used past its bound. Time is the `at` each call passes, so nothing here sleeps.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { boundedSlots, REFRESH_AHEAD_MS, reusedLookup } from '../../src/access/reused-lookup.ts';

type Answer = { ok: boolean; n: number; until?: number };
const REUSE = 3000;
const RENEW_AT = REUSE - REFRESH_AHEAD_MS;

/** A lookup whose answers the test gives one by one, counting the lookups begun. */
function lookups() {
  const waiting: { resolve: (a: Answer) => void; reject: (e: unknown) => void; at: number; previous: Answer | undefined }[] = [];
  let begun = 0;
  return {
    look: (at: number, previous?: Answer) =>
      new Promise<Answer>((resolve, reject) => {
        begun++;
        waiting.push({ resolve, reject, at, previous });
      }),
    begun: () => begun,
    next() {
      const w = waiting.shift();
      assert.ok(w, 'a lookup is waiting');
      return w;
    },
  };
}

/** Lets answered lookups reach their slots (a few promise turns). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

function setup(usableUntil?: (a: Answer) => number) {
  const errors: unknown[] = [];
  const get = reusedLookup<string, Answer>(boundedSlots(100), { reuseMs: REUSE, keep: (a) => a.ok, ...(usableUntil ? { usableUntil } : {}), onBackgroundError: (e) => errors.push(e) });
  return { get, errors, l: lookups() };
}

/** A kept answer for 'k', looked up at 0. */
async function primed() {
  const s = setup();
  const first = s.get('k', 0, s.l.look);
  const answer = { ok: true, n: 1 };
  s.l.next().resolve(answer);
  assert.equal(await first, answer);
  return { ...s, answer };
}

describe('reused lookups (bearer token, principal)', () => {
  it('requests that arrive while a lookup runs share it and its answer', async () => {
    const { get, l } = setup();
    const calls = [get('k', 0, l.look), get('k', 10, l.look), get('k', 20, l.look)];
    assert.equal(l.begun(), 1);
    const answer = { ok: true, n: 1 };
    l.next().resolve(answer);
    for (const value of await Promise.all(calls)) assert.equal(value, answer);
  });

  it('keeps keys apart', async () => {
    const { get, l } = setup();
    const a = get('a', 0, l.look);
    const b = get('b', 0, l.look);
    assert.equal(l.begun(), 2);
    l.next().resolve({ ok: true, n: 1 });
    l.next().resolve({ ok: true, n: 2 });
    assert.equal((await a).n, 1);
    assert.equal((await b).n, 2);
  });

  it('reuses a kept answer until the background window, without a lookup', async () => {
    const { get, l, answer } = await primed();
    assert.equal(await get('k', RENEW_AT - 1, l.look), answer);
    assert.equal(l.begun(), 1);
  });

  it('in the last part of its reuse answers at once and looks up again in the background, once', async () => {
    const { get, l, answer } = await primed();
    assert.equal(await get('k', RENEW_AT, l.look), answer);
    assert.equal(await get('k', RENEW_AT + 100, l.look), answer, 'still the old answer while the new one is looked up');
    assert.equal(l.begun(), 2, 'one background lookup');
    const renewal = l.next();
    assert.equal(renewal.at, RENEW_AT);
    assert.equal(renewal.previous, answer, 'the lookup sees the answer it renews');
    const newer = { ok: true, n: 2 };
    renewal.resolve(newer);
    await flush();
    assert.equal(await get('k', RENEW_AT + 200, l.look), newer);
    // The new answer's bound counts from its lookup's start, not from when it came.
    assert.equal(await get('k', RENEW_AT + REUSE - REFRESH_AHEAD_MS - 1, l.look), newer);
    assert.equal(l.begun(), 2);
  });

  it('never uses an answer past its bound: a lapsed one is looked up again while requests wait', async () => {
    const { get, l } = await primed();
    const late = get('k', REUSE, l.look);
    assert.equal(l.begun(), 2);
    const fresh = { ok: true, n: 2 };
    l.next().resolve(fresh);
    assert.equal(await late, fresh);
  });

  it('forgets a refusal found in the background: the next request looks up and waits', async () => {
    const { get, l, answer } = await primed();
    assert.equal(await get('k', RENEW_AT, l.look), answer);
    l.next().resolve({ ok: false, n: 2 });
    await flush();
    const after = get('k', RENEW_AT + 10, l.look);
    assert.equal(l.begun(), 3, 'the refusal was not reused');
    const refused = { ok: false, n: 3 };
    l.next().resolve(refused);
    assert.equal(await after, refused);
  });

  it('shares a refusal with those waiting for it, then forgets it', async () => {
    const { get, l } = setup();
    const calls = [get('k', 0, l.look), get('k', 1, l.look)];
    const refused = { ok: false, n: 1 };
    l.next().resolve(refused);
    for (const value of await Promise.all(calls)) assert.equal(value, refused);
    await flush();
    void get('k', 2, l.look);
    assert.equal(l.begun(), 2);
  });

  it('a failed lookup fails every request waiting for it and is forgotten', async () => {
    const { get, l } = setup();
    const calls = [get('k', 0, l.look), get('k', 1, l.look)];
    l.next().reject(new Error('store down'));
    for (const call of calls) await assert.rejects(call, /store down/);
    await flush();
    void get('k', 2, l.look);
    assert.equal(l.begun(), 2);
  });

  it('a failed background lookup keeps the answer in use until its bound, reports it, and may be tried again', async () => {
    const { get, l, answer, errors } = await primed();
    assert.equal(await get('k', RENEW_AT, l.look), answer);
    l.next().reject(new Error('store down'));
    await flush();
    assert.equal(errors.length, 1);
    assert.equal(await get('k', RENEW_AT + 10, l.look), answer);
    assert.equal(l.begun(), 3, 'the next request in the window tries again');
    l.next().resolve({ ok: true, n: 3 });
    await flush();
    assert.equal((await get('k', REUSE + 10, l.look)).n, 3);
  });

  it('uses a kept answer no longer than it says it may be (a token expiring within the reuse)', async () => {
    const { get, l } = setup((a) => a.until ?? Infinity);
    const first = get('k', 0, l.look);
    l.next().resolve({ ok: true, n: 1, until: 500 });
    await first;
    await flush();
    assert.equal((await get('k', 499, l.look)).n, 1);
    const begun = l.begun();
    void get('k', 500, l.look);
    assert.equal(l.begun(), begun + 1, 'looked up again at its own bound');
  });

  it('a request that joined a lookup under way is not answered with a value already past its bound', async () => {
    const { get, l } = setup((a) => a.until ?? Infinity);
    const first = get('k', 0, l.look);
    const before = get('k', 400, l.look);
    const after = get('k', 900, l.look);
    const answer = { ok: true, n: 1, until: 500 };
    l.next().resolve(answer);
    assert.equal(await first, answer, 'its own lookup answers the request that began it');
    assert.equal(await before, answer, 'usable when that request came');
    await flush();
    assert.equal(l.begun(), 2, 'the request at 900 looks up again');
    const refused = { ok: false, n: 2 };
    l.next().resolve(refused);
    assert.equal(await after, refused);
  });

  it('…nor when a later request replaced that lookup before it answered', async () => {
    const { get, l } = setup((a) => a.until ?? Infinity);
    void get('k', 0, l.look);
    const joined = get('k', 900, l.look);
    void get('k', REUSE, l.look); // the first lookup's reuse has lapsed: a second one replaces it
    const first = l.next();
    const second = l.next();
    first.resolve({ ok: true, n: 1, until: 500 });
    await flush();
    assert.equal(l.begun(), 3, 'the request at 900 looks up again');
    const refused = { ok: false, n: 3 };
    l.next().resolve(refused);
    assert.equal(await joined, refused);
    second.resolve({ ok: true, n: 2 });
  });

  it('a renewed value is used no longer than its own lookup allows', async () => {
    const { get, l } = await primed();
    void get('k', RENEW_AT, l.look);
    await flush(); // the background lookup begins once the current value is read
    l.next().resolve({ ok: true, n: 2 });
    await flush();
    assert.equal((await get('k', RENEW_AT + REUSE - 1, l.look)).n, 2);
    const begun = l.begun();
    void get('k', RENEW_AT + REUSE, l.look);
    assert.equal(l.begun(), begun + 1, 'looked up again at the renewal start + reuse');
  });

  it('a renewal that answers after its slot was replaced does not overwrite the newer value', async () => {
    const { get, l } = await primed();
    void get('k', RENEW_AT, l.look);
    await flush();
    const renewal = l.next();
    const lapsed = get('k', REUSE, l.look);
    const newer = { ok: true, n: 3 };
    l.next().resolve(newer);
    assert.equal(await lapsed, newer);
    renewal.resolve({ ok: true, n: 2 });
    await flush();
    assert.equal(await get('k', REUSE + 10, l.look), newer);
  });

  it('a renewed value is used no longer than it says it may be', async () => {
    const { get, l } = setup((a) => a.until ?? Infinity);
    const first = get('k', 0, l.look);
    l.next().resolve({ ok: true, n: 1 });
    await first;
    void get('k', RENEW_AT, l.look);
    await flush();
    l.next().resolve({ ok: true, n: 2, until: RENEW_AT + 500 });
    await flush();
    assert.equal((await get('k', RENEW_AT + 499, l.look)).n, 2);
    const begun = l.begun();
    void get('k', RENEW_AT + 500, l.look);
    assert.equal(l.begun(), begun + 1);
  });

  it('bounded slots push out the key set longest ago; setting a key again makes it the newest', async () => {
    const slots = boundedSlots<string, Answer>(2);
    const slot = (n: number) => ({ value: Promise.resolve({ ok: true, n }), until: 1, settled: true, renewing: false });
    slots.set('a', slot(1));
    slots.set('b', slot(2));
    slots.set('a', slot(3));
    assert.ok(slots.get('a') && slots.get('b'), 'a key set again takes no new room');
    slots.set('c', slot(4));
    assert.equal(slots.get('b'), undefined, 'b was set longest ago');
    assert.ok(slots.get('a') && slots.get('c'));
  });
});
