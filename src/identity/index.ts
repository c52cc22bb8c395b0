// Identity: who is in this browser. Exports the BrowserIdentity the authorization server consumes
// and the routes (sign-in, sign-up, sessions, demo identity provider) mounted by src/http/app.ts.
export { createBrowserIdentity, type IdentityService } from './browser-identity.ts';
export { identityRoutes } from './routes.ts';
export type { BrowserIdentity, SignedInUser } from './contract.ts';
export { safeReturnTo } from './return-to.ts';
export { deleteSessionsExpiredBefore } from './sessions.ts';
export { deleteLoginStatesExpiredBefore } from './upstream/login-states.ts';
