// Debian's Chromium, driven by playwright-core: the one way tests open a real browser. The flags
// keep it off this machine's closed network (background services would fail their lookups).
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * On the sign-in page the browser is at: "Continue with Google", then the demo identity provider's
 * form for `email`. Returns once the form is submitted; the caller waits for where it should land.
 */
export async function signInWithDemoGoogle(page: Page, email: string): Promise<void> {
  await page.waitForURL(/\/signin\?/);
  await page.click('#signin-google');
  await page.waitForURL(/\/demo-idp\//);
  await page.fill('input[type=email]', email);
  await page.click('button[type=submit]');
}
