// The OAuth consent page's form, read the way a browser would submit it: its hidden `request`
// handle and `csrf_token`, and the "Approve" post of them to /oauth/consent.
import type { CookieJar } from './cookie-jar.ts';

export type ConsentForm = { request: string; csrf_token: string };

const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1]?.replaceAll('&amp;', '&');

/** The consent form's hidden fields on a page, or undefined when the page shows no consent form. */
export function readConsentForm(page: string): ConsentForm | undefined {
  const request = hidden(page, 'request');
  const csrf = hidden(page, 'csrf_token');
  return request && csrf ? { request, csrf_token: csrf } : undefined;
}

/** The consent form's hidden fields on a page; throws when there is none. */
export function consentForm(page: string): ConsentForm {
  const form = readConsentForm(page);
  if (!form) throw new Error('no consent form on the page');
  return form;
}

/** POSTs "Approve" for `form` to `consentUrl` with the browser's cookies (the redirect is not followed). */
export function approveConsent(jar: CookieJar, consentUrl: string | URL, form: ConsentForm): Promise<Response> {
  return jar.fetch(consentUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, decision: 'approve' }).toString(),
  });
}
