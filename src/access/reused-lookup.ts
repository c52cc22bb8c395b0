// Values looked up in the store for a bearer token (the verified token, the principal) and reused
// in process for a bounded time (VERIFIED_REUSE_MS). Two rules keep a busy caller's requests from
// waiting on the store together:
// - one lookup per key at a time: requests that arrive while it runs take its answer;
// - a value in use is looked up again in the background during the last REFRESH_AHEAD_MS of its
//   reuse, and replaced when that answer comes. An agent's parallel calls otherwise all found it
//   lapsed at once, every 3 s, and all waited for the store: on PostgreSQL, under W1's 32
//   connections, for the pool behind the page queries already queued, so each such moment made
//   ~20 requests late by tens of milliseconds.
// A value is never used past its own `until`, which is counted from when its lookup began: a
// revocation, a disabled user or an expired license still reaches every request within the bound.

/** The part of a value's reuse during which a request also starts a background lookup. */
export const REFRESH_AHEAD_MS = 1000;

export type Slot<V> = { value: Promise<V>; until: number; renewing: boolean };

/** Where the slots live: boundedSlots, or a WeakMap keyed by an object the value belongs to. */
export type Slots<K, V> = { get(key: K): Slot<V> | undefined; set(key: K, slot: Slot<V>): unknown; delete(key: K): unknown };

/** Slots in a Map of at most `max` keys: a new key past it pushes out the oldest. */
export function boundedSlots<K, V>(max: number): Slots<K, V> {
  const map = new Map<K, Slot<V>>();
  return {
    get: (key) => map.get(key),
    set(key, slot) {
      if (!map.has(key) && map.size >= max) map.delete(map.keys().next().value as K);
      map.set(key, slot);
    },
    delete: (key) => map.delete(key),
  };
}

export type ReusedLookupOptions<V> = {
  reuseMs: number;
  /** Whether a value is kept for reuse (a refusal is answered to those waiting for it, then forgotten). */
  keep(value: V): boolean;
  /** The latest time a kept value may be used (e.g. its token's expiry); at most its lookup's start + reuseMs. */
  usableUntil?(value: V): number;
  /** A background lookup that failed: the current value stays in use until its own bound. */
  onBackgroundError(error: unknown): void;
};

/**
 * `get(key, at, look)`: the reused value for `key`, or the answer of `look(at, previous)`, where
 * `previous` is the value being renewed (a lookup may hand it back unchanged, so objects keyed by
 * it keep their own slots).
 */
export function reusedLookup<K, V>(slots: Slots<K, V>, options: ReusedLookupOptions<V>) {
  const settle = (key: K, slot: Slot<V>, value: V): void => {
    if (slots.get(key) !== slot) return;
    if (!options.keep(value)) slots.delete(key);
    else if (options.usableUntil) slot.until = Math.min(slot.until, options.usableUntil(value));
  };

  function fresh(key: K, at: number, look: (at: number, previous?: V) => Promise<V>): Promise<V> {
    const slot: Slot<V> = { value: look(at), until: at + options.reuseMs, renewing: false };
    slots.set(key, slot);
    slot.value.then(
      (value) => settle(key, slot, value),
      () => void (slots.get(key) === slot && slots.delete(key)),
    );
    return slot.value;
  }

  function renew(key: K, current: Slot<V>, at: number, look: (at: number, previous?: V) => Promise<V>): void {
    current.renewing = true;
    current.value
      .then((previous) => look(at, previous))
      .then(
        (value) => {
          if (slots.get(key) !== current) return;
          const next: Slot<V> = { value: Promise.resolve(value), until: at + options.reuseMs, renewing: false };
          slots.set(key, next);
          settle(key, next, value);
        },
        (error: unknown) => {
          current.renewing = false;
          options.onBackgroundError(error);
        },
      );
  }

  return (key: K, at: number, look: (at: number, previous?: V) => Promise<V>): Promise<V> => {
    const slot = slots.get(key);
    if (!slot || slot.until <= at) return fresh(key, at, look);
    if (!slot.renewing && slot.until - at <= REFRESH_AHEAD_MS) renew(key, slot, at, look);
    return slot.value;
  };
}
