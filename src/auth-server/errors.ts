// One class per OAuth error code, thrown deep and rendered once (by the app's onError, since they
// are HttpErrors). RFC 6749 §5.2: error_description is ASCII without `"` or `\` (AS-41).
import { HttpError } from '../http/errors.ts';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

function asciiDescription(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, "'");
}

export abstract class OAuthError extends HttpError {
  constructor(status: ContentfulStatusCode, code: string, description: string, headers: Record<string, string> = {}) {
    super(status, code, asciiDescription(description), headers);
    this.name = new.target.name;
  }
}

export class InvalidRequest extends OAuthError {
  constructor(description: string) {
    super(400, 'invalid_request', description);
  }
}

/** RFC 6749 §5.2: 401, and `WWW-Authenticate: Basic` when the client tried Basic (AS-38). */
export class InvalidClient extends OAuthError {
  constructor(description: string, options: { basic?: boolean; realm?: string } = {}) {
    super(401, 'invalid_client', description, options.basic ? { 'WWW-Authenticate': `Basic realm="${options.realm ?? 'oauth'}", charset="UTF-8"` } : {});
  }
}

export class InvalidGrant extends OAuthError {
  constructor(description: string) {
    super(400, 'invalid_grant', description);
  }
}

export class UnauthorizedClient extends OAuthError {
  constructor(description: string) {
    super(400, 'unauthorized_client', description);
  }
}

export class UnsupportedGrantType extends OAuthError {
  constructor(description: string) {
    super(400, 'unsupported_grant_type', description);
  }
}

export class UnsupportedResponseType extends OAuthError {
  constructor(description: string) {
    super(400, 'unsupported_response_type', description);
  }
}

export class InvalidScope extends OAuthError {
  constructor(description: string) {
    super(400, 'invalid_scope', description);
  }
}

/** RFC 8707 §2: a resource this server does not serve. */
export class InvalidTarget extends OAuthError {
  constructor(description: string) {
    super(400, 'invalid_target', description);
  }
}

export class AccessDenied extends OAuthError {
  constructor(description: string) {
    super(403, 'access_denied', description);
  }
}

/** RFC 7591 §3.2.2. */
export class InvalidRedirectUri extends OAuthError {
  constructor(description: string) {
    super(400, 'invalid_redirect_uri', description);
  }
}

export class InvalidClientMetadata extends OAuthError {
  constructor(description: string) {
    super(400, 'invalid_client_metadata', description);
  }
}

/** RFC 6750 §3.1, used by the RFC 7592 read endpoint. */
export class InvalidToken extends OAuthError {
  constructor(description: string) {
    super(401, 'invalid_token', description, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }
}

export class TooManyRequests extends OAuthError {
  constructor(retryAfterSeconds: number) {
    super(429, 'too_many_requests', `Too many requests; retry after ${retryAfterSeconds} s`, { 'Retry-After': String(retryAfterSeconds) });
  }
}
