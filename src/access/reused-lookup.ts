// Values looked up in the store for a bearer token (the verified token, the principal) and reused
// in process for a bounded time (VERIFIED_REUSE_MS), so that a busy caller's requests never all
// wait for the store at once:
// - one lookup per key at a time: requests that arrive while it runs take its answer;
// - a value in use is looked up again in the background during the last REFRESH_AHEAD_MS of its
//   reuse, and replaced when that answer comes (before, all of an agent's parallel calls found it
//   lapsed together every 3 s and queued for the store: README, Performance).
// A request is answered only by a lookup that began less than `reuseMs` before it arrived, and
// never with a value past its own bound (`usableUntil`, e.g. its token's expiry): a revocation,
// a disabled user or an expired license reaches every request within the bound.

/** The part of a value's reuse during which a request also starts a background lookup. */
export const REFRESH_AHEAD_MS = 1000;

type Slot<V> = { value: Promise<V>; until: number; settled: boolean; renewing: boolean };

/** Where the slots live: boundedSlots, or weakSlots keyed by an object the value belongs to. */
export type Slots<K, V> = { get(key: K): Slot<V> | undefined; set(key: K, slot: Slot<V>): unknown; delete(key: K): unknown };

/** Slots in a Map of at most `max` keys: a new key past it pushes out the one set longest ago. */
export function boundedSlots<K, V>(max: number): Slots<K, V> {
  const map = new Map<K, Slot<V>>();
  return {
    get: (key) => map.get(key),
    set(key, slot) {
      // Set again (a renewed value) moves a key to the newest end: tokens in use are never the oldest.
      if (!map.delete(key) && map.size >= max) map.delete(map.keys().next().value as K);
      map.set(key, slot);
    },
    delete: (key) => map.delete(key),
  };
}

/** Slots that go with their key object (no bound needed). */
export const weakSlots = <K extends object, V>(): Slots<K, V> => new WeakMap<K, Slot<V>>();

export type ReusedLookupOptions<V> = {
  reuseMs: number;
  /** Whether a value is kept for reuse (a refusal is answered to those waiting for it, then forgotten). */
  keep(value: V): boolean;
  /** The latest time a kept value may be used (e.g. its token's expiry); at most its lookup's start + reuseMs. */
  usableUntil?(value: V): number;
  /** A background lookup that failed: the current value stays in use until its own bound. */
  onBackgroundError(error: unknown): void;
};

type Look<V> = (at: number, previous?: V) => Promise<V>;

/**
 * `get(key, at, look)`: the value for `key` at time `at`, reused or the answer of `look(at,
 * previous)`, where `previous` is the value being renewed (a lookup may hand it back unchanged, so
 * whatever is keyed by it keeps its own slot).
 */
export function reusedLookup<K, V>(slots: Slots<K, V>, options: ReusedLookupOptions<V>) {
  function settle(key: K, slot: Slot<V>, value: V): void {
    slot.settled = true;
    const kept = options.keep(value);
    // Even a slot replaced meanwhile: requests that joined its lookup check its bound (get).
    if (kept && options.usableUntil) slot.until = Math.min(slot.until, options.usableUntil(value));
    if (!kept && slots.get(key) === slot) slots.delete(key);
  }

  function fresh(key: K, at: number, look: Look<V>): Promise<V> {
    const slot: Slot<V> = { value: look(at), until: at + options.reuseMs, settled: false, renewing: false };
    slots.set(key, slot);
    slot.value.then(
      (value) => settle(key, slot, value),
      () => void (slots.get(key) === slot && slots.delete(key)),
    );
    return slot.value;
  }

  function renew(key: K, current: Slot<V>, at: number, look: Look<V>): void {
    current.renewing = true;
    const renewed = (value: V) => {
      if (slots.get(key) !== current) return; // replaced or forgotten meanwhile: a newer state stands
      const next: Slot<V> = { value: Promise.resolve(value), until: at + options.reuseMs, settled: false, renewing: false };
      slots.set(key, next);
      settle(key, next, value);
    };
    const failed = (error: unknown) => {
      current.renewing = false;
      options.onBackgroundError(error);
    };
    // A current lookup that fails has already told its waiters, and its slot is gone: nothing to renew.
    current.value.then((previous) => look(at, previous).then(renewed, failed), () => undefined);
  }

  return function get(key: K, at: number, look: Look<V>): Promise<V> {
    const slot = slots.get(key);
    if (!slot || slot.until <= at) return fresh(key, at, look);
    if (!slot.renewing && slot.until - at <= REFRESH_AHEAD_MS) renew(key, slot, at, look);
    if (slot.settled) return slot.value;
    // Joined a lookup under way: its answer's own bound is known only when it comes. Kept but
    // already past it at this request's time (a token that expired meanwhile): look up again.
    return slot.value.then((value) => (!options.keep(value) || slot.until > at ? value : fresh(key, at, look)));
  };
}
