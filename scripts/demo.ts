// npm run demo [-- BASE_URL [EMAIL]]: a scripted agent session against a running local server
// (`npm start` in another terminal). The official MCP client (v2) finds the authorization server
// from the 401, registers, and gets a token; the demo signs in as a demo user through the demo
// identity provider and approves the consent page over HTTP (what a person does in the browser).
// Then it prepares for the user's next customer meeting with the tools and prints what an agent sees.
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientMetadata, type OAuthDiscoveryState, type StoredOAuthClientInformation, type StoredOAuthTokens } from '@modelcontextprotocol/client';
import { approveHeadless } from '../test/clients/support/headless.ts';

const base = (process.argv[2] ?? process.env.DEMO_BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const email = process.argv[3] ?? process.env.DEMO_EMAIL ?? 'mia.member@northwind.example';
const mcpUrl = new URL(`${base}/mcp`);

/** The agent's OAuth state, in memory for this one session. */
class SessionProvider {
  info: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  verifier = '';
  discovery: OAuthDiscoveryState | undefined;
  authorizationUrl: URL | undefined;
  readonly redirectUrl = 'http://127.0.0.1:8978/callback'; // never listened on: the demo reads the redirect itself
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'npm run demo (scripted agent)', redirect_uris: [this.redirectUrl], token_endpoint_auth_method: 'none' };
  }
  clientInformation = () => this.info;
  saveClientInformation = (info: StoredOAuthClientInformation) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (tokens: StoredOAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
  saveDiscoveryState = (state: OAuthDiscoveryState) => void (this.discovery = state);
  discoveryState = () => this.discovery;
}

const say = (text = '') => process.stdout.write(`${text}\n`);
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** Tool results are only printed here, never trusted for anything: a loose type keeps the printing short. */
type Json = Record<string, any>;

async function connect(): Promise<Client> {
  const health = await fetch(`${base}/healthz`).catch(() => undefined);
  if (!health?.ok) {
    process.stderr.write(`No server answers at ${base}. Start one with \`npm start\` in another terminal, then run \`npm run demo\` again.\n`);
    process.exit(1);
  }
  const provider = new SessionProvider();
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  try {
    await new Client({ name: 'demo-agent', version: '1.0.0' }).connect(first);
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  if (!provider.authorizationUrl) throw new Error('the server did not ask for authorization');
  say(`1. POST ${mcpUrl.pathname} → 401; discovered the authorization server, registered as ${provider.info?.client_id}`);
  say(`2. Signing in as ${email} through the demo identity provider and approving the consent page…`);
  const { callback } = await approveHeadless(provider.authorizationUrl, email);
  await first.finishAuth(callback.searchParams);
  say(`3. Token issued (scope "${provider.saved?.scope}", expires in ${provider.saved?.expires_in ?? '?'} s)`);
  const client = new Client({ name: 'demo-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  const tools = await client.listTools();
  say(`4. tools/list: ${tools.tools.map((t) => t.name).join(', ')}`);
  say();
  return client;
}

async function main() {
  const client = await connect();
  const call = async (name: string, args: Json): Promise<Json> => {
    say(`→ ${name}(${JSON.stringify(args)})`);
    const result = await client.callTool({ name, arguments: args });
    const text = Array.isArray(result.content) && result.content[0]?.type === 'text' ? result.content[0].text : '';
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    say(`  (the agent receives ${text.length.toLocaleString('en-US')} characters of JSON)`);
    return (result.structuredContent ?? {}) as Json;
  };

  const me = (await call('get_teams', {})).me;
  say(`  You are ${me.name} (${me.role}, ${me.teams.map((t: Json) => t.name).join(', ') || 'no team'}), timezone ${me.timezone}.\n`);

  const upcoming = await call('list_meetings', { range: 'next_7_days', meeting_type: 'external', status: 'scheduled', owner: 'me', sort: 'start_asc', limit: 5 });
  const next = upcoming.meetings?.find((m: Json) => m.deal_id) ?? upcoming.meetings?.[0];
  if (!next) {
    say(`  No customer meeting in the next 7 days for ${email}. Try another demo account, e.g. npm run demo -- ${base} max.manager@northwind.example`);
    await client.close();
    return;
  }
  const who = next.external_participants.map((p: Json) => `${p.name} (${p.title ?? p.company})`).join(', ');
  say(`  Next customer meeting: "${next.title}" on ${new Date(next.start).toUTCString()} with ${who}.\n`);

  if (next.deal_id) {
    const deal = await call('get_deal', { deal_id: next.deal_id });
    const d = deal.deal;
    say(`  Deal: ${d.name} — ${d.stage}, ${d.amount?.toLocaleString('en-US')} ${d.currency}, closes ${d.close_date}.`);
    const buyers = (deal.stakeholders?.people ?? []).filter((p: Json) => p.side === 'buyer').slice(0, 4);
    say(`  Buyer stakeholders: ${buyers.map((p: Json) => `${p.name} (${p.title}, ${p.meetings_attended} meetings)`).join('; ')}`);
    const qs = deal.qualification_summary;
    if (qs) say(`  ${qs.name}: ${qs.percent}% qualified; strong on ${qs.strong.join(', ')}.\n`);

    const past = await call('list_meetings', { deal_id: next.deal_id, has_transcript: true, range: 'this_quarter', limit: 3 });
    const last = past.meetings?.[0];
    if (last) {
      say(`  Last recorded meeting: "${last.title}" (${last.start.slice(0, 10)}).\n`);
      const transcript = await call('get_meeting_transcript', { meeting_id: last.meeting_id, side: 'buyer', max_chars: 6000 });
      say('  What the buyer said (excerpt, past the introductions):');
      const segments: Json[] = transcript.segments ?? [];
      const middle = Math.floor(segments.length / 2);
      for (const s of segments.slice(middle, middle + 4)) say(`    [${Math.floor(s.start_s / 60)}:${String(s.start_s % 60).padStart(2, '0')}] ${s.speaker}: "${clip(s.text, 140)}"`);
      say();
    }

    const qualification = await call('get_qualification_results', { deal_id: next.deal_id });
    const gaps = (qualification.dimensions ?? []).filter((dim: Json) => dim.status !== 'strong');
    say(`  Qualification gaps (${qualification.framework?.name}):`);
    for (const dim of gaps) say(`    - ${dim.title} ${dim.score}/${dim.max_score}: ${clip(dim.summary, 110)}${dim.gaps?.[0] ? ` → ${clip(dim.gaps[0], 90)}` : ''}`);
    if (gaps.length === 0) say('    none: every dimension is strong.');
    say();

    const weakest = gaps[0]?.title ?? 'the next step';
    const docs = await call('ask_documents', { question: `How should we handle ${weakest.toLowerCase()} in a ${d.stage} meeting?` });
    say('  From the enablement documents:');
    for (const line of String(docs.answer_md ?? 'not found').split('\n')) say(`    ${line}`);
    for (const c of (docs.citations ?? []).slice(0, 2)) say(`    [${c.n}] ${c.title} — ${c.heading ?? ''} (${c.url})`);
  }
  say('\nThat is what an agent sees: enough to brief you before the meeting, and nothing you may not see yourself.');
  await client.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
