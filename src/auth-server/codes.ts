// Issuing authorization codes: bound to client, PKCE challenge, redirect URI, resource, scope, user
// and the browser session that approved them (AS-21); stored only as a keyed hash; 60 s by default.
import type { AppContext } from '../http/context.ts';
import { insertCode, type AuthorizationCode } from '../store/oauth-codes.ts';
import { now } from '../store/ids.ts';
import { keyedHash, newSecret } from './secrets.ts';

/** What a code is bound to: the stored code without its hash, times and consumption state. */
export type CodeBinding = Omit<AuthorizationCode, 'codeHash' | 'createdAt' | 'expiresAt' | 'consumedAt' | 'grantId'>;

export async function issueAuthorizationCode(ctx: AppContext, binding: CodeBinding): Promise<string> {
  const code = newSecret('code');
  const at = now();
  await insertCode(ctx.store.db, {
    ...binding,
    codeHash: keyedHash(ctx.config.secrets.hash, code),
    createdAt: at,
    expiresAt: at + ctx.config.oauth.codeTtlSeconds * 1000,
  });
  return code;
}
