// Storage errors the callers act on, classified by driver error code (never by message text).

export class ConflictError extends Error {
  override name = 'ConflictError';
}

const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const PG_UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown };
  return e.code === PG_UNIQUE_VIOLATION || e.errcode === SQLITE_CONSTRAINT_UNIQUE || e.errcode === SQLITE_CONSTRAINT_PRIMARYKEY;
}

/** Runs a write and turns a unique-key violation into a ConflictError with the given message. */
export async function uniquely<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(message, { cause: error });
    throw error;
  }
}

// The database cannot be reached right now (down, restarting, refusing connections, or SQLite
// busy): callers answer 503 with Retry-After rather than 500 (issue 9, dependency outages).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH',
  '57P01', '57P02', '57P03', // admin_shutdown, crash_shutdown, cannot_connect_now
  '08000', '08001', '08003', '08004', '08006', // connection exceptions
  '53300', // too_many_connections
]);
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
// pg and pg-pool raise these without a code; their text is the only signal they give.
const PG_CODELESS = /^(timeout exceeded when trying to connect|Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|Query read timeout)$/;

export function isStoreUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, errcode, message, errors } = e as { code?: unknown; errcode?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (errcode === SQLITE_BUSY || errcode === SQLITE_LOCKED) return true;
    if (typeof message === 'string' && PG_CODELESS.test(message)) return true;
    // AggregateError (a dual-stack connect refused on every address).
    if (Array.isArray(errors) && errors.some((x) => isStoreUnavailable(x))) return true;
  }
  return false;
}
