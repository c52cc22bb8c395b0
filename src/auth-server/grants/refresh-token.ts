// grant_type=refresh_token (RFC 6749 §6) with rotation on every use (AS-47). Rotation is a
// compare-and-set on the presented token; the winner stores its response, encrypted, on the old
// token for the grace window, so an identical retry within it gets the same answer (AS-49). Any
// other use of a rotated token outside the window revokes the whole grant and is audited (AS-48).
import type { AppContext } from '../../http/context.ts';
import { findRefreshToken, markRefreshTokenRotated, revokeGrant, touchGrant, type RefreshToken } from '../../store/oauth-grants.ts';
import { recordAuditEvent } from '../../store/audit-events.ts';
import { now } from '../../store/ids.ts';
import { audit, logAuditEvent, requestOrigin } from '../audit.ts';
import { InvalidGrant, InvalidScope, InvalidTarget } from '../errors.ts';
import { required } from '../http/params.ts';
import { newTokenPair, storeTokenPair, type TokenResponse } from '../issue.ts';
import { canonicalizeResource } from '../resource.ts';
import { keyedHash } from '../secrets.ts';
import { openSecret, sealSecret } from '../../crypto/secret-box.ts';
import type { GrantRequest, GrantType } from './types.ts';

/** The grace response is bound to the refresh token it answers: it cannot be moved to another row. */
const graceContext = (tokenHash: string) => `refresh-grace:${tokenHash}`;

class LostRotation extends Error {}

/** AS-52: every dead refresh token answers invalid_grant, so clients re-authorize. */
async function findPresented(r: GrantRequest, token: string): Promise<RefreshToken> {
  const found = await findRefreshToken(r.ctx.store.db, keyedHash(r.ctx.config.secrets.hash, token));
  if (!found) throw new InvalidGrant('The refresh token is invalid');
  return found;
}

/** AS-45: bound to the client it was issued to. */
function checkClient(r: GrantRequest, rt: RefreshToken): void {
  if (rt.grant.clientId !== r.client.clientId) throw new InvalidGrant('The refresh token was issued to another client');
}

function checkGrantLive(rt: RefreshToken, at: number): void {
  if (rt.grant.revokedAt !== null || rt.revokedAt !== null) throw new InvalidGrant('The refresh token has been revoked');
  if (rt.grant.expiresAt <= at) throw new InvalidGrant('The grant has reached its maximum lifetime');
}

/** P7: a resource that is not ours is invalid_target; ours but not this grant's is invalid_grant. */
function checkResource(r: GrantRequest, rt: RefreshToken): void {
  const sent = r.params.get('resource');
  if (sent === undefined) return;
  const canonical = canonicalizeResource(r.ctx.config, sent);
  if (!canonical) throw new InvalidTarget('resource is not served by this authorization server');
  if (canonical !== rt.grant.resource) throw new InvalidGrant('The refresh token is bound to another resource');
}

/** AS-46: a refresh may narrow the scope of the new access token, never widen it. */
function requestedScope(r: GrantRequest, rt: RefreshToken): string {
  const sent = r.params.get('scope');
  if (sent === undefined) return rt.grant.scope;
  const granted = new Set(rt.grant.scope.split(' '));
  const asked = [...new Set(sent.split(' ').filter(Boolean))];
  const wider = asked.find((s) => !granted.has(s));
  if (wider) throw new InvalidScope(`scope ${wider} was not granted`);
  return asked.join(' ');
}

/** What makes two refresh requests "identical" for the grace window. */
function fingerprint(ctx: AppContext, r: GrantRequest, presented: string): string {
  return keyedHash(ctx.config.secrets.hash, JSON.stringify([presented, r.client.clientId, r.params.get('scope') ?? '', r.params.get('resource') ?? '']));
}

async function answerRotated(r: GrantRequest, rt: RefreshToken, print: string, at: number): Promise<TokenResponse> {
  const { ctx } = r;
  const withinGrace = rt.rotatedAt !== null && at - rt.rotatedAt <= ctx.config.oauth.refreshGraceSeconds * 1000;
  if (withinGrace) {
    if (rt.requestFingerprint === print && rt.graceResponseEnc) return JSON.parse(openSecret(ctx.config.secrets.encryptionKey, rt.graceResponseEnc, graceContext(rt.tokenHash))) as TokenResponse;
    throw new InvalidGrant('The refresh token has just been rotated');
  }
  if (await revokeGrant(ctx.store.db, rt.grant.id, 'refresh_token_reuse', at)) {
    await audit(ctx, r.c, {
      kind: 'rt_reuse_detected',
      orgId: rt.grant.orgId,
      userId: rt.grant.userId,
      clientId: rt.grant.clientId,
      detail: { grant_id: rt.grant.id, client_name: r.client.clientName, rotated_ms_ago: rt.rotatedAt === null ? null : at - rt.rotatedAt },
    });
  }
  throw new InvalidGrant('The refresh token has already been used; the grant is revoked');
}

/**
 * The rotation as one transaction, so a refresh costs at most one commit (on SQLite shared with the
 * grants beside it: store.transact): the compare-and-set (which also stores the fingerprint and the
 * sealed response for the grace window), the new pair, the grant's "last used" when it is stale,
 * and the audit event - issued tokens are never left unaudited.
 */
async function rotate(r: GrantRequest, rt: RefreshToken, scope: string, print: string, at: number): Promise<TokenResponse> {
  const { ctx } = r;
  const pair = newTokenPair(ctx, rt.grant, scope, at);
  // Kept only for the grace window (cleared by the periodic job), and only encrypted.
  const sealed = ctx.config.oauth.refreshGraceSeconds > 0 ? sealSecret(ctx.config.secrets.encryptionKey, JSON.stringify(pair.response), graceContext(rt.tokenHash)) : null;
  const event = { kind: 'tokens_refreshed', orgId: rt.grant.orgId, userId: rt.grant.userId, clientId: rt.grant.clientId, detail: { scope } } as const;
  await ctx.store.transact(async (trx) => {
    if (!(await markRefreshTokenRotated(trx, rt.tokenHash, print, sealed, at))) throw new LostRotation();
    await storeTokenPair(trx, pair);
    await touchGrant(trx, rt.grant, at);
    await recordAuditEvent(trx, { ...event, ...requestOrigin(r.c) });
  });
  logAuditEvent(ctx, r.c, event);
  return pair.response;
}

export const refreshTokenGrant: GrantType = {
  name: 'refresh_token',
  async handle(r) {
    const presented = required(r.params, 'refresh_token');
    const rt = await findPresented(r, presented);
    const at = now();
    checkClient(r, rt);
    checkGrantLive(rt, at);
    if (rt.userDisabled) throw new InvalidGrant('The account behind this grant is disabled');
    checkResource(r, rt);
    const scope = requestedScope(r, rt);
    const print = fingerprint(r.ctx, r, presented);
    if (rt.rotatedAt !== null) return answerRotated(r, rt, print, at);
    if (rt.expiresAt <= at) throw new InvalidGrant('The refresh token has expired');
    try {
      return await rotate(r, rt, scope, print, at);
    } catch (error) {
      if (!(error instanceof LostRotation)) throw error;
      // A concurrent request rotated it first: answer as for a rotated token (same response if identical).
      const again = await findPresented(r, presented);
      if (again.rotatedAt === null) throw new InvalidGrant('The refresh token is no longer valid');
      return answerRotated(r, again, print, now());
    }
  },
};
