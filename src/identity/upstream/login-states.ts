// Upstream sign-in attempts: one row per authorization request, found by the keyed hash of its
// `state`, bound to the browser cookie that started it, and consumed exactly once (a DELETE whose
// row count decides, so two concurrent callbacks cannot both win). Expired attempts are refused on
// read and removed by the periodic job, never on a request.
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { now } from '../../store/ids.ts';
import { LOGIN_STATE_TTL_MS } from '../defaults.ts';
import { SignInRefused } from '../refusal.ts';
import { keyedHash } from '../secrets.ts';
import { constantTimeEqual } from '../../crypto/constant-time.ts';
import type { UpstreamProviderKind } from '../schema.ts';

export type LoginState = {
  provider: UpstreamProviderKind;
  ssoOrgId: string | null;
  codeVerifier: string;
  nonce: string;
  returnTo: string | null;
  signupSource: string | null;
};

export async function saveLoginState(db: Kysely<Database>, hashKey: string, state: string, browser: string, value: LoginState): Promise<void> {
  const at = now();
  await db
    .insertInto('upstream_login_states')
    .values({
      state_hash: keyedHash(hashKey, 'login-state', state),
      browser_hash: keyedHash(hashKey, 'login-browser', browser),
      provider: value.provider,
      sso_org_id: value.ssoOrgId,
      code_verifier: value.codeVerifier,
      nonce: value.nonce,
      return_to: value.returnTo,
      signup_source: value.signupSource,
      created_at: at,
      expires_at: at + LOGIN_STATE_TTL_MS,
    })
    .execute();
}

/** Periodic housekeeping (src/auth-server/jobs.ts): removes attempts that expired before `cutoff`. */
export async function deleteLoginStatesExpiredBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const r = await db.deleteFrom('upstream_login_states').where('expires_at', '<=', cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Consumes the attempt named by `state`; refuses a missing cookie, a replay, another browser, or an expired attempt. */
export async function consumeLoginState(
  db: Kysely<Database>,
  hashKey: string,
  provider: UpstreamProviderKind,
  state: string | undefined,
  browser: string | undefined,
): Promise<LoginState> {
  if (!browser) throw new SignInRefused('login_state_missing', 'This sign-in was not started in this browser (its cookie is missing). Start again.', { status: 400 });
  if (!state || state.length > 256) throw new SignInRefused('login_state_invalid', 'The sign-in response carried no valid state. Start again.', { status: 400 });
  const stateHash = keyedHash(hashKey, 'login-state', state);
  const row = await db.selectFrom('upstream_login_states').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
  const gone = () => new SignInRefused('login_state_invalid', 'This sign-in response was already used, has expired, or was not started here. Start again.', { status: 400 });
  if (!row) throw gone();
  if (!constantTimeEqual(row.browser_hash, keyedHash(hashKey, 'login-browser', browser))) throw gone();
  const deleted = await db.deleteFrom('upstream_login_states').where('state_hash', '=', stateHash).executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) throw gone();
  if (Number(row.expires_at) <= now() || row.provider !== provider) throw gone();
  return {
    provider: row.provider,
    ssoOrgId: row.sso_org_id,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    returnTo: row.return_to,
    signupSource: row.signup_source,
  };
}
