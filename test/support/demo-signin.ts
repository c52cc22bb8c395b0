// Signs in through the built-in demo identity provider over plain HTTP (a cookie jar and form
// posts, no browser), the way a browser would: start path → demo sign-in page → callback.
// Other suites use this to get a signed-in browser's Cookie header. Keep the signature stable.
import { CookieJar } from './cookie-jar.ts';

export type DemoSignInOptions = {
  /** Which demo issuer to use (default: google). */
  provider?: 'google' | 'microsoft';
  /** The `source` query parameter of the start path (recorded as the sign-up source). */
  source?: string;
};

export class DemoSignInError extends Error {
  override name = 'DemoSignInError';
  readonly status: number;
  /** The refusal page's reason code (e.g. `personal_account`), when there is one. */
  readonly reason: string | null;
  constructor(message: string, status: number, reason: string | null) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

const OURS = (name: string) => /^(__Host-)?aas_/.test(name);
const attr = (html: string, pattern: RegExp) => pattern.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null;

/**
 * Signs `email` in through the demo provider and returns the service's Cookie header (session and
 * browser cookies). With `returnTo`, the sign-in must end by redirecting there. Throws
 * DemoSignInError (with the refusal reason) when the sign-in is refused.
 */
export async function signInAsDemoUser(baseUrl: string, email: string, returnTo?: string, options: DemoSignInOptions = {}): Promise<string> {
  const jar = new CookieJar();
  const start = options.provider === 'microsoft' ? '/login_ms/' : '/login_google/';
  const startUrl = new URL(start, baseUrl);
  if (returnTo) startUrl.searchParams.set('return_to', returnTo);
  if (options.source !== undefined) startUrl.searchParams.set('source', options.source);

  const refusal = async (response: Response, step: string) => {
    const body = await response.text();
    const reason = attr(body, /data-reason="([^"]+)"/);
    return new DemoSignInError(`demo sign-in of ${email} failed at ${step}: HTTP ${response.status}${reason ? ` (${reason})` : ''}`, response.status, reason);
  };

  // 1. Start, and follow redirects to the demo provider's sign-in page.
  let url = startUrl;
  let response = await jar.fetch(url);
  for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 10; hops++) {
    url = new URL(response.headers.get('location') ?? '', url);
    response = await jar.fetch(url);
  }
  if (response.status !== 200) throw await refusal(response, 'the start');
  const page = await response.text();
  const action = attr(page, /<form method="post" action="([^"]+)"/);
  const csrf = attr(page, /name="csrf_token" value="([^"]+)"/);
  if (!action || !csrf) throw new DemoSignInError('demo sign-in page has no form', response.status, null);

  // 2. Submit the email, then follow redirects through the provider to our callback.
  url = new URL(action, url);
  response = await jar.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, csrf_token: csrf }).toString(),
  });
  for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 10; hops++) {
    const next = new URL(response.headers.get('location') ?? '', url);
    if (next.origin === new URL(baseUrl).origin && !/^\/(demo-idp|login_)/.test(next.pathname)) {
      // The callback's final redirect: where sign-in ends.
      if (returnTo && `${next.pathname}${next.search}` !== returnTo) throw new DemoSignInError(`sign-in ended at ${next.pathname}, not ${returnTo}`, response.status, null);
      const cookie = jar.header(OURS);
      if (!/aas_session=/.test(cookie)) throw new DemoSignInError('sign-in set no session cookie', response.status, null);
      return cookie;
    }
    url = next;
    response = await jar.fetch(url);
  }
  // A page instead of a redirect: a refusal, or the trial-expired page (which still signs in).
  if (response.status === 403 && jar.header(OURS).includes('aas_session=')) {
    const reason = attr(await response.text(), /data-reason="([^"]+)"/);
    throw new DemoSignInError(`sign-in of ${email} ended on a page (${reason ?? 'unknown'})`, response.status, reason);
  }
  throw await refusal(response, 'the callback');
}
