// A browser's cookies for tests that drive pages over plain HTTP: one jar per browser, requests that
// send its cookies and keep the ones the answer sets, and redirects left to the test to follow.

/** A minimal cookie jar for one origin (paths ignored: every cookie is sent everywhere, harmlessly). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** A jar holding the cookies of a Cookie header (e.g. what signInAsDemoUser returns). */
  static from(cookieHeader: string): CookieJar {
    const jar = new CookieJar();
    for (const pair of cookieHeader.split('; ')) {
      const eq = pair.indexOf('=');
      if (eq > 0) jar.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return jar;
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || attributes.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(filter: (name: string) => boolean = () => true): string {
    return [...this.cookies].filter(([name]) => filter(name)).map(([n, v]) => `${n}=${v}`).join('; ');
  }

  /** One request as this browser: its cookies sent, the answer's Set-Cookie kept, redirects not followed. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('cookie', this.header());
    const response = await fetch(url, { ...init, redirect: 'manual', headers });
    this.store(response);
    return response;
  }
}
