// The demo identity provider's fixed names: one issuer per upstream it stands in for, under
// BASE_URL (never the Host header), and the client our relying party uses with each.
import { keyedHash } from '../secrets.ts';

export const DEMO_IDP_PREFIX = '/demo-idp';
export const DEMO_KINDS = ['google', 'microsoft', 'sso'] as const;
export type DemoKind = (typeof DEMO_KINDS)[number];

export const demoIssuer = (baseUrl: string, kind: DemoKind) => `${baseUrl}${DEMO_IDP_PREFIX}/${kind}`;
export const demoClientId = (kind: DemoKind) => `demo-${kind}`;
/** Derived from the hash secret so nothing is hard-coded, yet both sides agree without storage. */
export const demoClientSecret = (hashKey: string, kind: DemoKind) => keyedHash(hashKey, 'demo-idp-client', kind);
