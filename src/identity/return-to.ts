// Where sign-in returns the browser. Attacker-controlled (it arrives in a query string), so only a
// same-origin absolute path is accepted: one leading `/`, never `//` (protocol-relative) and never a
// backslash (browsers read `/\evil.example` as `//evil.example`). Anything else is dropped.
const MAX_LENGTH = 2048;

export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  if (value.includes('\\')) return null;
  // Control characters and spaces can be stripped by browsers and turn the path into something else.
  if (/[\u0000-\u0020\u007f]/.test(value)) return null;
  const path = value.split(/[?#]/, 1)[0] ?? '';
  if (path.includes('//')) return null;
  // Belt and braces: resolved against any origin, it must stay on that origin.
  const base = 'https://return-to.invalid';
  if (new URL(value, base).origin !== base) return null;
  return value;
}

/** The `source` a sign-up link carries (e.g. a campaign): ≤ 64 of [A-Za-z0-9._-], else ignored. */
export function safeSignupSource(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(value) ? value : null;
}
