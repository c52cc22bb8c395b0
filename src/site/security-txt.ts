// /.well-known/security.txt (RFC 9116). Expires is computed from the current time (§2.5.5: less
// than a year ahead), so the file never ships already expired.
import type { Config } from '../config/load.ts';

const EXPIRES_IN_DAYS = 180;

export function renderSecurityTxt(config: Config, now: Date = new Date()): string {
  // Whole days, so the file (and its ETag) stays the same for a day at a time.
  const day = 24 * 60 * 60 * 1000;
  const expires = new Date(Math.floor(now.getTime() / day) * day + EXPIRES_IN_DAYS * day);
  const host = new URL(config.siteUrl).hostname;
  return [
    `Contact: mailto:security@${host}`,
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    'Preferred-Languages: en',
    // §2.5.2: every URI this file is served from (it is served on both hosts when they differ).
    ...[...new Set([config.siteUrl, config.baseUrl])].map((origin) => `Canonical: ${origin}/.well-known/security.txt`),
    `Policy: ${config.siteUrl}/security`,
    '',
  ].join('\n');
}
