// Organizations and their verified email domains.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, OrganizationsTable } from './schema.ts';
import { newId, now } from './ids.ts';
import { uniquely } from './errors.ts';
import { prepare } from './prepared.ts';

export type License = { plan: 'trial' | 'paid' | 'expired'; trialEndsAt: number | null; seats: number | null };
export type SsoSettings = { issuer: string; clientId: string; clientSecretEncrypted: string; domains: string[] };

/** An organization as request paths need it (name, license, settings): one row, no domain list. */
export type OrganizationRecord = {
  id: string;
  name: string;
  license: License;
  settings: { autoJoinByDomain: boolean; restrictMeetingDetailsToParticipants: boolean; sso: SsoSettings | null };
  createdAt: number;
};

/** With its verified email domains (administration, sign-up by domain). */
export type Organization = OrganizationRecord & { domains: string[] };

export type NewOrganization = {
  id?: string;
  name: string;
  domains: string[];
  license: License;
  autoJoinByDomain?: boolean;
  restrictMeetingDetailsToParticipants?: boolean;
};

const Domains = z.array(z.string());

function toRecord(row: OrganizationsTable): OrganizationRecord {
  const sso =
    row.sso_issuer && row.sso_client_id && row.sso_client_secret_enc
      ? {
          issuer: row.sso_issuer,
          clientId: row.sso_client_id,
          clientSecretEncrypted: row.sso_client_secret_enc,
          domains: Domains.parse(JSON.parse(row.sso_domains ?? '[]')),
        }
      : null;
  return {
    id: row.id,
    name: row.name,
    license: { plan: row.plan, trialEndsAt: row.trial_ends_at, seats: row.seats },
    settings: {
      autoJoinByDomain: row.auto_join_by_domain === 1,
      restrictMeetingDetailsToParticipants: row.restrict_meeting_details_to_participants === 1,
      sso,
    },
    createdAt: row.created_at,
  };
}

export const normalizeDomain = (domain: string) => domain.trim().toLowerCase();

export async function createOrganization(db: Kysely<Database>, input: NewOrganization): Promise<Organization> {
  const at = now();
  const id = input.id ?? newId('org', at);
  const domains = [...new Set(input.domains.map(normalizeDomain))];
  await uniquely(`an organization already holds one of the domains ${domains.join(', ')}`, () =>
    db.transaction().execute(async (trx) => {
      await trx
        .insertInto('organizations')
        .values({
          id,
          name: input.name,
          plan: input.license.plan,
          trial_ends_at: input.license.trialEndsAt,
          seats: input.license.seats,
          auto_join_by_domain: input.autoJoinByDomain === false ? 0 : 1,
          restrict_meeting_details_to_participants: input.restrictMeetingDetailsToParticipants ? 1 : 0,
          sso_issuer: null,
          sso_client_id: null,
          sso_client_secret_enc: null,
          sso_domains: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      if (domains.length > 0) {
        await trx
          .insertInto('org_domains')
          .values(domains.map((domain) => ({ domain, org_id: id, verified: 1, created_at: at })))
          .execute();
      }
    }),
  );
  const created = await findOrganization(db, id);
  if (!created) throw new Error('organization vanished after insert');
  return created;
}

const toOrganization = (row: OrganizationsTable, domains: string[]): Organization => ({ ...toRecord(row), domains });

/** One query, no domains: for the paths that only check a license or read settings (sign-in, bearer). */
const findOrganizationStatement = prepare<[string]>()((db, $) => db.selectFrom('organizations').selectAll().where('id', '=', $<string>(0)));

export async function findOrganizationRecord(db: Kysely<Database>, id: string): Promise<OrganizationRecord | undefined> {
  const [row] = (await findOrganizationStatement.execute(db, id)).rows;
  return row && toRecord(row);
}

export async function findOrganization(db: Kysely<Database>, id: string): Promise<Organization | undefined> {
  const record = await findOrganizationRecord(db, id);
  if (!record) return undefined;
  const domains = await db.selectFrom('org_domains').select('domain').where('org_id', '=', id).orderBy('domain').execute();
  return { ...record, domains: domains.map((d) => d.domain) };
}

export async function findOrganizationByDomain(db: Kysely<Database>, domain: string): Promise<Organization | undefined> {
  const hit = await db.selectFrom('org_domains').select('org_id').where('domain', '=', normalizeDomain(domain)).executeTakeFirst();
  return hit ? findOrganization(db, hit.org_id) : undefined;
}

export async function listOrganizations(db: Kysely<Database>): Promise<Organization[]> {
  const rows = await db.selectFrom('organizations').selectAll().orderBy('name').orderBy('id').execute();
  const domains = await db.selectFrom('org_domains').select(['org_id', 'domain']).orderBy('domain').execute();
  return rows.map((row) => toOrganization(row, domains.filter((d) => d.org_id === row.id).map((d) => d.domain)));
}

export async function setLicense(db: Kysely<Database>, orgId: string, license: License): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ plan: license.plan, trial_ends_at: license.trialEndsAt, seats: license.seats, updated_at: now() })
    .where('id', '=', orgId)
    .execute();
}

export async function setSso(db: Kysely<Database>, orgId: string, sso: SsoSettings | null): Promise<void> {
  await db
    .updateTable('organizations')
    .set({
      sso_issuer: sso?.issuer ?? null,
      sso_client_id: sso?.clientId ?? null,
      sso_client_secret_enc: sso?.clientSecretEncrypted ?? null,
      sso_domains: sso ? JSON.stringify(sso.domains.map(normalizeDomain)) : null,
      updated_at: now(),
    })
    .where('id', '=', orgId)
    .execute();
}

/** A license lets its organization read data when it is paid, or a trial that has not ended. */
export function licenseIsActive(license: License, at: number = now()): boolean {
  if (license.plan === 'paid') return true;
  if (license.plan === 'trial') return license.trialEndsAt !== null && license.trialEndsAt > at;
  return false;
}
