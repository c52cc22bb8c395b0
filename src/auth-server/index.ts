// The authorization server's public surface for the rest of the service.
export { createTokenVerifier } from './verify.ts';
export { issueGrantTokens, type GrantInput, type IssuedTokens, type TokenResponse } from './issue.ts';
export { canonicalResource, issuerOf } from './resource.ts';
export { oauthRoutes } from './routes.ts';
export { startOAuthJobs, collectAbandonedClients } from './jobs.ts';
export { authorizationServerMetadata, protectedResourceMetadata } from './metadata.ts';
