// The grant-type registry the token endpoint dispatches through (not a switch).
import { authorizationCodeGrant } from './authorization-code.ts';
import { refreshTokenGrant } from './refresh-token.ts';
import type { GrantType } from './types.ts';

export const grantTypes: ReadonlyMap<string, GrantType> = new Map([authorizationCodeGrant, refreshTokenGrant].map((g) => [g.name, g]));
