// grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707 §2.2), as named checks.
// The code is redeemed by one compare-and-set UPDATE inside the issuing transaction, so of any number
// of concurrent exchanges exactly one gets tokens (AS-24).
import { recordAuditEvent } from '../../store/audit-events.ts';
import { findCode, redeemCode, type AuthorizationCode } from '../../store/oauth-codes.ts';
import { revokeGrant } from '../../store/oauth-grants.ts';
import { now } from '../../store/ids.ts';
import { audit, logAuditEvent, requestOrigin } from '../audit.ts';
import { InvalidGrant, InvalidRequest, InvalidTarget } from '../errors.ts';
import { required } from '../http/params.ts';
import { createGrant, mintTokens, type TokenResponse } from '../issue.ts';
import { VERIFIER, verifierMatches } from '../pkce.ts';
import { canonicalizeResource } from '../resource.ts';
import { keyedHash } from '../secrets.ts';
import type { GrantRequest, GrantType } from './types.ts';

class CodeAlreadyUsed extends Error {}

function checkVerifierSyntax(verifier: string): void {
  if (!VERIFIER.test(verifier)) throw new InvalidRequest('code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
}

async function findLiveCode(r: GrantRequest, code: string): Promise<AuthorizationCode> {
  const found = await findCode(r.ctx.store.db, keyedHash(r.ctx.config.secrets.hash, code));
  if (!found) throw new InvalidGrant('The authorization code is invalid');
  if (found.expiresAt <= now() && found.consumedAt === null) throw new InvalidGrant('The authorization code has expired');
  return found;
}

/** AS-21/AS-40: the code belongs to the authenticated client. */
function checkClient(r: GrantRequest, code: AuthorizationCode): void {
  if (code.clientId !== r.client.clientId) throw new InvalidGrant('The authorization code was issued to another client');
}

/** AS-27: a redirect_uri sent here must equal the one the code was issued for. */
function checkRedirectUri(r: GrantRequest, code: AuthorizationCode): void {
  const sent = r.params.get('redirect_uri');
  if (sent !== undefined && sent !== code.redirectUri) throw new InvalidGrant('redirect_uri does not match the authorization request');
}

/** RFC 8707: the resource, when named again, must be the one the code is bound to. */
function checkResource(r: GrantRequest, code: AuthorizationCode): void {
  const sent = r.params.get('resource');
  if (sent === undefined) return;
  if (canonicalizeResource(r.ctx.config, sent) !== code.resource) throw new InvalidTarget('resource is not the one this code was issued for');
}

/** AS-20: a code issued without a challenge cannot be redeemed with a verifier (and none are issued). */
function checkPkce(code: AuthorizationCode, verifier: string): void {
  if (!code.codeChallenge) throw new InvalidGrant('The authorization code was issued without PKCE');
  if (!verifierMatches(verifier, code.codeChallenge)) throw new InvalidGrant('code_verifier does not match the code_challenge');
}

/** RFC 6749 §4.1.2: a second valid redemption revokes everything issued from the code (AS-24). */
async function revokeOnReplay(r: GrantRequest, code: AuthorizationCode): Promise<never> {
  // A code seen unused before a lost race is read again for the grant the winner recorded.
  const grantId = code.grantId ?? (await findCode(r.ctx.store.db, code.codeHash))?.grantId;
  if (grantId && (await revokeGrant(r.ctx.store.db, grantId, 'code_replay', now()))) {
    await audit(r.ctx, r.c, { kind: 'code_replay_detected', orgId: code.orgId, userId: code.userId, clientId: code.clientId, detail: { grant_id: grantId } });
  }
  throw new InvalidGrant('The authorization code has already been used');
}

/**
 * The issue as one transaction, so an exchange costs at most one commit (on SQLite shared with the
 * grants beside it: store.transact): the grant, the compare-and-set that redeems the code for it (a
 * loser rolls the grant back), the token pair, and the audit event - issued tokens are never left
 * unaudited.
 */
async function redeem(r: GrantRequest, code: AuthorizationCode): Promise<TokenResponse> {
  const { ctx } = r;
  const at = now();
  const event = { kind: 'tokens_issued', orgId: code.orgId, userId: code.userId, clientId: code.clientId, detail: { scope: code.scope } } as const;
  const response = await ctx.store.transact(async (trx) => {
    const grant = await createGrant(ctx, trx, { userId: code.userId, orgId: code.orgId, clientId: code.clientId, scopes: code.scope.split(' '), resource: code.resource }, at);
    if (!(await redeemCode(trx, code.codeHash, grant.id, at))) throw new CodeAlreadyUsed();
    const tokens = await mintTokens(ctx, trx, grant, grant.scope, at);
    await recordAuditEvent(trx, { ...event, ...requestOrigin(r.c) });
    return tokens;
  });
  logAuditEvent(ctx, r.c, event);
  return response;
}

export const authorizationCodeGrant: GrantType = {
  name: 'authorization_code',
  async handle(r) {
    const codeParam = required(r.params, 'code');
    const verifier = required(r.params, 'code_verifier');
    checkVerifierSyntax(verifier);
    const code = await findLiveCode(r, codeParam);
    checkClient(r, code);
    checkRedirectUri(r, code);
    checkResource(r, code);
    checkPkce(code, verifier);
    if (code.consumedAt !== null) return revokeOnReplay(r, code);
    try {
      return await redeem(r, code);
    } catch (error) {
      if (error instanceof CodeAlreadyUsed) return revokeOnReplay(r, code);
      throw error;
    }
  },
};
