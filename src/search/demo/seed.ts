// The demo documents: ~150 sales-enablement documents for an organization, generated
// deterministically from templates (same org and options → same ids, titles and text), some of
// them visible to one team only. `count` above 150 adds long account plans (benchmarks).
import { createHash } from 'node:crypto';
import type { Store } from '../../store/database.ts';
import { indexDocuments, type DocumentInput, type IndexResult } from '../documents.ts';
import { CORE_DOCS, type CoreDoc } from './core-docs.ts';
import { accountPlan } from './account-plans.ts';
import { caseStudy } from './case-studies.ts';
import { industryPlaybooks, featureOnePagers, regionalPlaybooks, releaseNotes, winLossReviews } from './families-market.ts';
import { battlecards, objectionCards, personaGuides } from './families-sales.ts';
import { teamDocs } from './team-docs.ts';

export type DemoTeam = { id: string; name: string };

export type DemoDocumentsOptions = {
  /**
   * How many documents in all (default 150, team documents included). Beyond 150 come long account
   * plans of ~20 passages each, for benchmarks.
   */
  count?: number;
  /** The selling company's name and product, written into the text. */
  company?: string;
  product?: string;
  /** Base of the `upload` documents' links (the platform web app, APP_URL). */
  appUrl?: string;
  /** "Now" for last-modified times (documents were modified in the year before it). */
  now?: number;
};

const DAY = 86_400_000;

function hash(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A stable id in the shape of store/ids.ts: `doc_` + 26 base32 characters. */
function stableId(orgId: string, key: string): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const bytes = hash(`document:${orgId}:${key}`);
  let out = '';
  for (let i = 0; i < 26; i++) out += alphabet[(bytes[i] ?? 0) & 31];
  return `doc_${out}`;
}

function urlOf(doc: CoreDoc, id: string, appUrl: string): string {
  const token = hash(id).toString('base64url').slice(0, 22);
  switch (doc.source) {
    case 'google_drive':
      return `https://drive.google.com/file/d/${token}/view`;
    case 'onedrive':
      return `https://onedrive.live.com/view.aspx?resid=${token}`;
    case 'highspot':
      return `https://app.highspot.com/items/${token}`;
    case 'upload':
      return `${appUrl.replace(/\/+$/, '')}/documents/${id}`;
  }
}

/** The demo documents of one organization, in a fixed order (org-wide first, then per team, then extra case studies). */
export function* demoDocuments(orgId: string, teams: DemoTeam[], options: DemoDocumentsOptions = {}): Generator<DocumentInput> {
  const count = options.count ?? 150;
  const company = options.company ?? 'Northwind Software';
  const product = options.product ?? (company === 'Northwind Software' ? 'Northwind Revenue Cloud' : `${company.split(' ')[0]} Revenue Cloud`);
  const appUrl = options.appUrl ?? 'https://app.example.com';
  const now = options.now ?? Date.now();
  const fill = (text: string) => text.replaceAll('{company}', company).replaceAll('{product}', product);

  const orgWide: CoreDoc[] = [
    ...CORE_DOCS,
    ...battlecards(),
    ...objectionCards(),
    ...personaGuides(),
    ...industryPlaybooks(),
    ...featureOnePagers(),
    ...releaseNotes(),
    ...winLossReviews(),
    ...regionalPlaybooks(),
  ];
  const perTeam = teams.flatMap((team, i) => teamDocs(team, i).map((doc) => ({ doc: { ...doc, key: `team-${team.id}-${doc.key}` }, team })));
  let emitted = 0;
  const make = (doc: CoreDoc, team: DemoTeam | null): DocumentInput => {
    const id = stableId(orgId, doc.key);
    const age = (hash(id).readUInt32LE(0) % 365) * DAY + (hash(id).readUInt32LE(4) % DAY);
    return {
      id,
      orgId,
      title: fill(doc.title),
      source: doc.source,
      url: urlOf(doc, id, appUrl),
      lastModified: Math.max(0, now - age),
      visibility: team ? 'team' : 'org',
      teamId: team?.id ?? null,
      ownerId: null,
      body: fill(doc.body),
    };
  };
  for (const doc of orgWide) {
    if (emitted >= count) return;
    emitted += 1;
    yield make(doc, null);
  }
  for (const { doc, team } of perTeam) {
    if (emitted >= count) return;
    emitted += 1;
    yield make(doc, team);
  }
  // The base set tops up with short case studies up to 150 documents; beyond that come long
  // account plans (~20 passages each: 10,000 documents ≈ 200,000 passages, as the benchmark needs).
  const BASE = 150;
  let study = 0;
  while (emitted < Math.min(count, BASE)) {
    emitted += 1;
    yield make(caseStudy(study++), null);
  }
  for (let i = 0; emitted < count; i++) {
    emitted += 1;
    yield make(accountPlan(i), null);
  }
}

/**
 * Writes the demo documents of one organization (see demoDocuments). Idempotent: the ids are
 * derived from the organization and the template, so seeding twice replaces the same documents.
 */
export async function seedDemoDocuments(
  store: Store,
  orgId: string,
  teams: DemoTeam[],
  options: DemoDocumentsOptions & { onBatch?: (done: IndexResult) => void } = {},
): Promise<IndexResult> {
  const { documents, chunks } = await indexDocuments(store, demoDocuments(orgId, teams, options), { onBatch: options.onBatch });
  return { documents, chunks };
}
