// The shape of each demo organization: people, teams, accounts with their buyer contacts, deals.
// Everything is drawn from one seeded Rng per organization, so the two orgs never share a row.
import type { Rng } from './prng.ts';
import { BUYER_TITLES, COMPANY_PREFIX, COMPANY_SUFFIX, FIRST_NAMES, LAST_NAMES, STAGES, type Stage } from './vocabulary.ts';
import type { Role } from '../store/schema.ts';

export type PlanUser = { id: string; email: string; name: string; role: Role; teamKey: string | null; isManager: boolean; timezone: string };
export type PlanTeam = { key: string; id: string; name: string; parentKey: string | null };
export type Contact = { name: string; email: string; title: string };
export type PlanAccount = { id: string; domain: string; name: string; contacts: Contact[] };
export type PlanDeal = {
  id: string;
  accountIdx: number;
  name: string;
  ownerIdx: number;
  teamKey: string | null;
  stage: Stage;
  status: 'open' | 'won' | 'lost';
  amount: number;
  closeDate: string;
  crmSystem: 'salesforce' | 'hubspot' | 'none';
  crmOpportunityId: string | null;
  crmUrl: string | null;
  customFields: Record<string, string | number>;
};

export type OrgSpec = {
  key: 'northwind' | 'globex';
  name: string;
  domain: string;
  currency: string;
  teams: { key: string; name: string; parentKey: string | null }[];
  /** Fixed demo accounts (always present, in this order). */
  fixedUsers: { local: string; name: string; role: Role; teamKey: string | null; isManager: boolean }[];
  /** Generated people per team: managers first, then members and viewers. */
  generated: { teamKey: string; managers: number; members: number; viewers: number }[];
};

export type OrgPlan = {
  spec: OrgSpec;
  orgId: string;
  users: PlanUser[];
  teams: PlanTeam[];
  accounts: PlanAccount[];
  deals: PlanDeal[];
};

const DAY = 86_400_000;
export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function personName(rng: Rng, used: Set<string>): string {
  for (;;) {
    const name = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '');

export function planOrganization(rng: Rng, spec: OrgSpec, sizes: { accounts: number; deals: number }, anchor: number): OrgPlan {
  const orgId = rng.id('org', anchor - 400 * DAY);
  const teams: PlanTeam[] = spec.teams.map((t) => ({ ...t, id: rng.id('team', anchor - 400 * DAY) }));
  const usedNames = new Set<string>();
  const users: PlanUser[] = [];
  const timezones = ['America/New_York', 'America/Chicago', 'Europe/London', 'Europe/Berlin', 'America/Los_Angeles'];
  for (const f of spec.fixedUsers) {
    usedNames.add(f.name);
    users.push({ id: rng.id('usr', anchor - 390 * DAY), email: `${f.local}@${spec.domain}`, name: f.name, role: f.role, teamKey: f.teamKey, isManager: f.isManager, timezone: rng.pick(timezones) });
  }
  for (const g of spec.generated) {
    const roles: [Role, boolean][] = [
      ...Array.from({ length: g.managers }, (): [Role, boolean] => ['manager', true]),
      ...Array.from({ length: g.members }, (): [Role, boolean] => ['member', false]),
      ...Array.from({ length: g.viewers }, (): [Role, boolean] => ['viewer', false]),
    ];
    for (const [role, isManager] of roles) {
      const name = personName(rng, usedNames);
      users.push({ id: rng.id('usr', anchor - 380 * DAY), email: `${slug(name)}@${spec.domain}`, name, role, teamKey: g.teamKey, isManager, timezone: rng.pick(timezones) });
    }
  }

  const accounts: PlanAccount[] = [];
  const usedCompanies = new Set<string>();
  for (let i = 0; i < sizes.accounts; i++) {
    let name = `${rng.pick(COMPANY_PREFIX)} ${rng.pick(COMPANY_SUFFIX)}`;
    if (usedCompanies.has(name)) name = `${name} ${Math.floor(i / 10) + 2}`;
    usedCompanies.add(name);
    const domain = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`;
    const contactNames = new Set<string>();
    const contacts = Array.from({ length: rng.int(2, 5) }, () => {
      const n = personName(rng, contactNames);
      return { name: n, email: `${slug(n)}@${domain}`, title: rng.pick(BUYER_TITLES) };
    });
    accounts.push({ id: rng.id('acct', anchor - 370 * DAY), domain, name, contacts });
  }

  const sellers = users.map((u, i) => [u, i] as const).filter(([u]) => u.role === 'member' || u.role === 'manager');
  const deals: PlanDeal[] = [];
  for (let i = 0; i < sizes.deals; i++) {
    const accountIdx = i < accounts.length ? i : rng.int(0, accounts.length - 1);
    const [owner, ownerIdx] = rng.pick(sellers);
    const stage = rng.weighted<Stage>([['discovery', 20], ['demo', 18], ['proposal', 14], ['negotiation', 10], ['closed_won', 22], ['closed_lost', 16]]);
    const status = stage === 'closed_won' ? 'won' : stage === 'closed_lost' ? 'lost' : 'open';
    const closeMs = status === 'open' ? anchor + rng.int(3, 150) * DAY : anchor - rng.int(5, 330) * DAY;
    const crmSystem = rng.weighted<PlanDeal['crmSystem']>([['salesforce', 60], ['hubspot', 25], ['none', 15]]);
    const oppId = crmSystem === 'salesforce' ? `006${rng.id('x', 0).slice(-15).toUpperCase()}` : crmSystem === 'hubspot' ? String(rng.int(1_000_000_000, 9_999_999_999)) : null;
    const crmUrl =
      crmSystem === 'salesforce' ? `https://${spec.key}.my.salesforce.com/lightning/r/Opportunity/${oppId}/view` : crmSystem === 'hubspot' ? `https://app.hubspot.com/contacts/4417${spec.key === 'northwind' ? 1 : 2}/deal/${oppId}` : null;
    const account = accounts[accountIdx]!;
    deals.push({
      id: rng.id('deal', anchor - 360 * DAY),
      accountIdx,
      name: `${account.name} — ${rng.pick(['Revenue Cloud rollout', 'Sales team expansion', 'Enablement pilot', 'Platform renewal', 'Forecasting add-on'])}`,
      ownerIdx,
      teamKey: owner.teamKey,
      stage,
      status,
      amount: rng.int(8, 400) * 1000,
      closeDate: isoDate(closeMs),
      crmSystem,
      crmOpportunityId: oppId,
      crmUrl,
      customFields: crmSystem === 'none' ? {} : { forecast_category: rng.pick(['pipeline', 'best_case', 'commit']), lead_source: rng.pick(['inbound', 'outbound', 'partner', 'event']) },
    });
  }
  return { spec, orgId, users, teams, accounts, deals };
}

export const STAGE_ORDER: readonly Stage[] = STAGES;
