// Request bodies on /oauth/* are small forms and JSON (AS-63: ≤ 64 KB). The limit is enforced
// while reading — a declared Content-Length over it is refused before any byte is read — so a
// client announcing a huge body can neither make the endpoint buffer it nor hold it waiting.
import type { MiddlewareHandler } from 'hono';
import { bodySizeLimit } from '../../http/body.ts';
import type { AppEnv } from '../../http/context.ts';
import { errorFormat } from '../../http/errors.ts';
import { InvalidRequest } from '../errors.ts';
import { localErrorPage } from '../authorize/respond.ts';

export const MAX_OAUTH_BODY_BYTES = 64 * 1024;

export function oauthBodyLimit(): MiddlewareHandler<AppEnv> {
  return bodySizeLimit({
    maxSize: MAX_OAUTH_BODY_BYTES,
    onError: (c) => {
      const description = `The request body is larger than ${MAX_OAUTH_BODY_BYTES} bytes`;
      // The consent form is a page a person submitted; the other endpoints speak JSON (RFC 6749 §5.2).
      if (errorFormat(c) === 'html') return localErrorPage(c, new InvalidRequest(description));
      // The same 400 and codes the endpoints give after reading (RFC 7591 §3.2.2, RFC 6749 §5.2).
      c.header('Cache-Control', 'no-store');
      c.header('Connection', 'close');
      const code = c.req.path.startsWith('/oauth/register') ? 'invalid_client_metadata' : 'invalid_request';
      return c.json({ error: code, error_description: description }, 400);
    },
  });
}
