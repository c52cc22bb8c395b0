// The smallest OAuthClientProvider the official client SDKs need, everything in memory. Both SDK
// majors (v2 `@modelcontextprotocol/client`, v1 `@modelcontextprotocol/sdk`) accept this shape.
// A test reads what the SDK saved (registration, tokens) and the authorization URL it was sent to.
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
type Tokens = { access_token: string; refresh_token?: string; token_type: string };
type Info = { client_id: string; client_secret?: string };

type Metadata = { client_name?: string; redirect_uris: string[]; [field: string]: unknown };

export class MemoryOAuthProvider {
  info: Info | undefined;
  saved: Tokens | undefined;
  verifier = '';
  discovery: OAuthDiscoveryState | undefined;
  authorizationUrl: URL | undefined;
  readonly redirectUrl: string;
  readonly clientMetadata: Metadata;

  constructor(redirectUrl: string, metadata: Partial<Metadata> = {}) {
    this.redirectUrl = redirectUrl;
    this.clientMetadata = { redirect_uris: [redirectUrl], ...metadata };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: Info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: Tokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // SEP-2352: lets the SDK bind the callback leg to the authorization server it discovered.
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}
