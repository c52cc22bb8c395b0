// Why a sign-in was refused. Thrown anywhere in the sign-in pipeline, rendered once by the refusal
// page. `reason` is a stable code (tests and logs use it); `message` is for the person.
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export type RefusalReason =
  | 'personal_account'
  | 'personal_microsoft_account'
  | 'google_no_hosted_domain'
  | 'email_not_verified'
  | 'email_domain_mismatch'
  | 'no_sso'
  | 'not_a_member'
  | 'user_disabled'
  | 'login_state_missing'
  | 'login_state_invalid'
  | 'provider_unavailable'
  | 'upstream_error'
  | 'id_token_iss'
  | 'id_token_aud'
  | 'id_token_exp'
  | 'id_token_nonce'
  | 'id_token_invalid';

export class SignInRefused extends Error {
  override name = 'SignInRefused';
  readonly reason: RefusalReason;
  readonly status: ContentfulStatusCode;
  /** For `not_a_member`: whom to ask. */
  readonly admins: string[];
  /** Where the refused sign-in would have returned (kept for the alternatives' links). */
  returnTo: string | null = null;
  constructor(reason: RefusalReason, message: string, options: { status?: ContentfulStatusCode; admins?: string[]; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.status = options.status ?? 403;
    this.admins = options.admins ?? [];
  }
}
