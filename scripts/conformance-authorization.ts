// The authorization-server scenarios of the MCP conformance suite (0.2.0 line:
// `conformance authorization --url <issuer>`), with the user's part scripted in Chromium: the suite
// prints an authorization URL and waits for the redirect on its own 127.0.0.1 callback server; a
// headless browser signs in through the demo identity provider, approves the consent page and so
// delivers the redirect. The client is registered dynamically as a public client beforehand.
import { spawn } from 'node:child_process';
import { launchBrowser, signInWithDemoGoogle } from '../test/support/browser.ts';

export type AuthorizationRun = { output: string; exitCode: number | null };

async function register(issuer: string, callback: string): Promise<string> {
  const res = await fetch(`${issuer}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [callback], token_endpoint_auth_method: 'none' }),
  });
  if (res.status !== 201) throw new Error(`registration failed: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** Signs in as `email` and approves, starting from the authorization URL; returns when the browser reached the callback. */
async function approveInChromium(authorizationUrl: string, email: string, callbackOrigin: string): Promise<void> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(authorizationUrl);
    await signInWithDemoGoogle(page, email);
    await page.waitForURL(/\/oauth\/consent\?request=/);
    await page.click('button[value=approve]');
    await page.waitForURL((url) => url.href.startsWith(callbackOrigin));
  } finally {
    await browser.close();
  }
}

/** Runs `conformance authorization` (all its active scenarios) against `issuer`, driving the consent in Chromium. */
export async function runAuthorizationScenarios(bin: string, issuer: string, resource: string, port: number, email: string): Promise<AuthorizationRun> {
  const callbackOrigin = `http://127.0.0.1:${port}`;
  const clientId = await register(issuer, `${callbackOrigin}/callback`);
  const child = spawn(process.execPath, [bin, 'authorization', '--url', issuer, '--client-id', clientId, '--resource', resource, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let approving: Promise<void> | undefined;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    const url = new RegExp(`^(${issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/oauth/authorize\\?\\S+)$`, 'm').exec(output)?.[1];
    if (url && !approving) {
      approving = approveInChromium(url, email, callbackOrigin).catch((error: unknown) => {
        output += `\n[consent in Chromium failed: ${error instanceof Error ? error.message : String(error)}]\n`;
        child.kill();
      });
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  await approving;
  return { output, exitCode };
}
