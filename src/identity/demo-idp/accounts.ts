// The demo identity provider's accounts: anyone who types an email address. Claims imitate the
// provider each issuer stands in for — Google sends `hd` only for Workspace domains; Microsoft sends
// `tid`/`oid`, with the personal-account tenant for consumer domains — so the relying party's real
// checks run against them.
import { createHash } from 'node:crypto';
import { MICROSOFT_CONSUMER_TENANT } from '../defaults.ts';
import type { EmailPolicy } from '../email-policy.ts';
import type { DemoKind } from './clients.ts';

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest();

function guid(...parts: string[]): string {
  const h = digest(...parts).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The stable subject of an email at a demo issuer (opaque, like the real providers'). */
export function demoSubject(kind: DemoKind, email: string): string {
  if (kind === 'google') return (digest('google', email).readBigUInt64BE(0) % 10n ** 20n).toString().padStart(21, '1');
  return digest(kind, email).toString('base64url').slice(0, 32);
}

export function demoName(email: string): string {
  const local = email.slice(0, email.indexOf('@'));
  return local
    .split(/[._+-]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

export function demoClaims(kind: DemoKind, email: string, policy: EmailPolicy): Record<string, unknown> {
  const domain = email.slice(email.indexOf('@') + 1);
  const personal = policy.isPersonalDomain(domain);
  const base = { sub: demoSubject(kind, email), email, email_verified: true, name: demoName(email) };
  if (kind === 'google') return personal ? base : { ...base, hd: domain };
  if (kind === 'microsoft') {
    const tid = personal ? MICROSOFT_CONSUMER_TENANT : guid('tenant', domain);
    return { ...base, tid, oid: guid('object', email), preferred_username: email, xms_edov: !personal };
  }
  return base;
}
