// Issuing authorization codes: bound to client, PKCE challenge, redirect URI, resource, scope, user
// and the browser session that approved them (AS-21); stored only as a keyed hash; 60 s by default.
import type { AppContext } from '../http/context.ts';
import { insertCode } from '../store/oauth-codes.ts';
import { now } from '../store/ids.ts';
import { keyedHash, newSecret } from './secrets.ts';

export type CodeBinding = {
  clientId: string;
  orgId: string;
  userId: string;
  sessionId: string | null;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  resource: string;
};

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
