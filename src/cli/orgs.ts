// `agent-access orgs create|list` and `orgs sso set|clear`: organizations, their license and SSO.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { demoClientId, demoClientSecret, demoIssuer } from '../identity/demo-idp/clients.ts';
import { sealSecret, ssoSecretContext } from '../crypto/secret-box.ts';
import { now } from '../store/ids.ts';
import { createOrganization, listOrganizations, setSso, type License } from '../store/organizations.ts';
import { day, dispatch, printTable, requireOrganization, UsageError, withStore } from './admin-common.ts';

const USAGE = `Usage:
  agent-access orgs create --name <name> --domain <domain> [--domain <domain>…] [--plan trial|paid] [--trial-days N] [--seats N] [--no-auto-join]
  agent-access orgs list [--json]
  agent-access orgs sso set --org <id|domain> --issuer <url> --client-id <id> [--client-secret-env VAR] --domain <domain> [--domain …]
  agent-access orgs sso set --org <id|domain> --demo          (development: the demo identity provider's SSO issuer)
  agent-access orgs sso clear --org <id|domain>

The SSO client secret is read from the environment variable named by --client-secret-env
(default SSO_CLIENT_SECRET), never from the command line, and stored encrypted (AES-256-GCM).
`;

const Domain = z.string().trim().toLowerCase().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'is not a domain name');

function domains(values: string[] | undefined): string[] {
  if (!values || values.length === 0) throw new UsageError('at least one --domain is required');
  return values.map((v) => {
    const parsed = Domain.safeParse(v);
    if (!parsed.success) throw new UsageError(`--domain ${JSON.stringify(v)} is not a domain name`);
    return parsed.data;
  });
}

async function create(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      domain: { type: 'string', multiple: true },
      plan: { type: 'string', default: 'trial' },
      'trial-days': { type: 'string' },
      seats: { type: 'string' },
      'no-auto-join': { type: 'boolean', default: false },
    },
  });
  if (!values.name?.trim()) throw new UsageError('--name is required');
  const plan = z.enum(['trial', 'paid']).safeParse(values.plan);
  if (!plan.success) throw new UsageError('--plan must be trial or paid');
  const seats = values.seats === undefined ? null : Number(values.seats);
  if (seats !== null && (!Number.isInteger(seats) || seats < 1)) throw new UsageError('--seats must be a positive whole number');
  const orgDomains = domains(values.domain);
  return withStore(async (store, config) => {
    const trialDays = values['trial-days'] === undefined ? config.trialDays : Number(values['trial-days']);
    if (!Number.isInteger(trialDays) || trialDays < 1 || trialDays > 365) throw new UsageError('--trial-days must be 1–365');
    const license: License = { plan: plan.data, trialEndsAt: plan.data === 'trial' ? now() + trialDays * 86_400_000 : null, seats };
    const org = await createOrganization(store.db, { name: values.name!.trim(), domains: orgDomains, license, autoJoinByDomain: !values['no-auto-join'] });
    process.stdout.write(`created ${org.id} ${org.name} (${org.domains.join(', ')}), ${org.license.plan}${org.license.trialEndsAt ? ` until ${day(org.license.trialEndsAt)}` : ''}\n`);
    return 0;
  });
}

async function list(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } } });
  return withStore(async (store) => {
    const orgs = await listOrganizations(store.db);
    if (values.json) {
      const safe = orgs.map((o) => ({ ...o, settings: { ...o.settings, sso: o.settings.sso && { issuer: o.settings.sso.issuer, clientId: o.settings.sso.clientId, domains: o.settings.sso.domains } } }));
      process.stdout.write(JSON.stringify(safe, null, 2) + '\n');
      return 0;
    }
    printTable(
      orgs.map((o) => ({
        id: o.id,
        name: o.name,
        domains: o.domains.join(','),
        plan: o.license.plan,
        trial_ends: day(o.license.trialEndsAt),
        auto_join: o.settings.autoJoinByDomain ? 'yes' : 'no',
        sso: o.settings.sso?.issuer ?? '',
      })),
    );
    return 0;
  });
}

async function ssoSet(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-env': { type: 'string', default: 'SSO_CLIENT_SECRET' },
      domain: { type: 'string', multiple: true },
      demo: { type: 'boolean', default: false },
    },
  });
  return withStore(async (store, config) => {
    const org = await requireOrganization(store, values.org);
    let issuer: string;
    let clientId: string;
    let secret: string;
    if (values.demo) {
      if (!config.demoIdp) throw new UsageError('--demo needs the demo identity provider (DEMO_IDP, development only)');
      issuer = demoIssuer(config.baseUrl, 'sso');
      clientId = demoClientId('sso');
      secret = demoClientSecret(config.secrets.hash, 'sso');
    } else {
      const url = z.url({ protocol: config.env === 'production' ? /^https$/ : /^https?$/ }).safeParse(values.issuer);
      if (!url.success) throw new UsageError(`--issuer must be an ${config.env === 'production' ? 'https' : 'http(s)'} URL`);
      if (!values['client-id']) throw new UsageError('--client-id is required');
      const fromEnv = process.env[values['client-secret-env']];
      if (!fromEnv) throw new UsageError(`set the client secret in the environment variable ${values['client-secret-env']}`);
      issuer = url.data.replace(/\/$/, '');
      clientId = values['client-id'];
      secret = fromEnv;
    }
    const ssoDomains = values.domain?.length ? domains(values.domain) : org.domains;
    const foreign = ssoDomains.filter((d) => !org.domains.includes(d));
    if (foreign.length > 0) throw new UsageError(`SSO can serve only the organization's verified domains; not ${foreign.join(', ')}`);
    await setSso(store.db, org.id, {
      issuer,
      clientId,
      clientSecretEncrypted: sealSecret(config.secrets.encryptionKey, secret, ssoSecretContext(org.id)),
      domains: ssoDomains,
    });
    process.stdout.write(`SSO for ${org.name}: ${issuer} (client ${clientId}) serves ${ssoDomains.join(', ')}\n`);
    return 0;
  });
}

async function ssoClear(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' } } });
  return withStore(async (store) => {
    const org = await requireOrganization(store, values.org);
    await setSso(store.db, org.id, null);
    process.stdout.write(`SSO for ${org.name} removed\n`);
    return 0;
  });
}

export function orgsCommand(args: string[]): Promise<number> {
  if (args[0] === 'sso') return dispatch(args.slice(1), { set: ssoSet, clear: ssoClear }, USAGE);
  return dispatch(args, { create, list }, USAGE);
}
