// A grant type is a module with a name and a handler; the token endpoint looks it up in a registry.
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../http/context.ts';
import type { OAuthClient } from '../../store/oauth-clients.ts';
import type { Params } from '../http/params.ts';
import type { TokenResponse } from '../issue.ts';

export type GrantRequest = { ctx: AppContext; c: Context<AppEnv>; client: OAuthClient; params: Params };

export type GrantType = {
  name: string;
  handle(request: GrantRequest): Promise<TokenResponse>;
};
