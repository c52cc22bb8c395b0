// The contract between identity (who is in this browser) and the authorization server (which
// asks only that). Identity implements it; the consent and connected-apps pages consume it.
import type { Context } from 'hono';
import type { Role } from '../store/schema.ts';

export type SignedInUser = {
  userId: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string;
  /** The upstream issuer the session was established with (Google, Microsoft, an SSO tenant, demo). */
  upstreamIssuer: string;
  /** Epoch milliseconds of the sign-in. */
  authTime: number;
};

export interface BrowserIdentity {
  /** The signed-in user of this browser (server-side session behind a cookie), or null. */
  currentUser(c: Context): Promise<SignedInUser | null>;
  /** Where to send the browser to sign in; afterwards it returns to `returnTo` (a same-origin path). */
  signInUrl(returnTo: string): string;
  /** A CSRF token bound to this browser and a purpose (e.g. `consent:<handle>`), for a POST form. */
  issueCsrfToken(c: Context, purpose: string): Promise<string>;
  verifyCsrfToken(c: Context, purpose: string, token: string): Promise<boolean>;
}
