// Identity's fixed lifetimes and limits, in one place.

/** A browser session lasts at most this long after sign-in (absolute, not sliding). */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
/** An upstream sign-in attempt (state, nonce, PKCE verifier) must come back within 10 minutes. */
export const LOGIN_STATE_TTL_MS = 10 * 60 * 1000;
/** The browser-binding cookie: long enough to span sign-in attempts, rotated freely. */
export const BROWSER_COOKIE_TTL_S = 24 * 3600;
/** Upstream discovery documents and keys are cached this long per issuer. */
export const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Microsoft's personal-account tenant (MSAL TenantProfile docs); refused, AS-76. */
export const MICROSOFT_CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
/** Sign-in starts per client address per minute: each writes a row, so they are bounded (high: offices share addresses). */
export const SIGN_IN_STARTS_PER_MINUTE = 300;
