// Work emails only: a maintained list of free email providers (npm `free-email-domains`, ~14k domains,
// read from the installed package so it works offline), with an allowlist override in configuration
// (FREE_EMAIL_DOMAINS_ALLOWED) for a company whose real domain happens to be on the list.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

let freeDomains: Set<string> | undefined;

function loadFreeDomains(): Set<string> {
  freeDomains ??= new Set(
    z.array(z.string()).parse(JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('free-email-domains/domains.json')), 'utf8'))).map((d) => d.toLowerCase()),
  );
  return freeDomains;
}

export type EmailPolicy = { isPersonalDomain(domain: string): boolean };

export function emailPolicy(allowed: readonly string[]): EmailPolicy {
  const allow = new Set(allowed.map((d) => d.trim().toLowerCase()));
  const list = loadFreeDomains();
  return { isPersonalDomain: (domain) => !allow.has(domain.toLowerCase()) && list.has(domain.toLowerCase()) };
}

const EMAIL = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** The domain of a syntactically valid email address, lower case; null otherwise. */
export function emailDomain(email: unknown): string | null {
  const parsed = EMAIL.safeParse(email);
  if (!parsed.success) return null;
  return parsed.data.slice(parsed.data.lastIndexOf('@') + 1);
}
