// The slice of oidc-provider v9's API the demo identity provider uses (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type Account = { accountId: string; claims(): Promise<Record<string, unknown>> };

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export type KoaContextWithOIDC = {
    type: string;
    body: unknown;
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
    };
  };

  export type Configuration = {
    adapter?: new (name: string) => unknown;
    clients?: Array<Record<string, unknown>>;
    jwks?: { keys: Array<Record<string, unknown>> };
    cookies?: { keys?: string[] };
    claims?: Record<string, string[]>;
    scopes?: string[];
    responseTypes?: string[];
    conformIdTokenClaims?: boolean;
    ttl?: Record<string, number>;
    pkce?: { required?: (ctx: KoaContextWithOIDC, client: unknown) => boolean };
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url?: (ctx: KoaContextWithOIDC, interaction: { uid: string }) => string };
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Promise<Account | undefined>;
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
    renderError?: (ctx: KoaContextWithOIDC, out: Record<string, unknown>, error: unknown) => Promise<void>;
  };

  export type InteractionDetails = { uid: string; prompt: { name: string }; params: Record<string, unknown>; session?: { accountId?: string } };

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    Grant: {
      new (init: { clientId: string; accountId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
