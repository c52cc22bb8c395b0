// Resolving the references tools accept (owner, deal aliases) within the caller's organization.
import type { ToolContext } from '../define-tool.ts';
import { InvalidArgument, NotFound } from '../errors.ts';
import { userByEmail, type UserLabel } from '../../store/sales/lookups.ts';
import { findVisibleDeal, type DealRow } from '../../store/sales/deals.ts';
import { normalizeProspectOrg } from '../params.ts';

export async function resolveOwner(ctx: ToolContext, owner: string): Promise<UserLabel> {
  if (owner.trim().toLowerCase() === 'me') return { id: ctx.principal.userId, name: ctx.principal.name, email: ctx.principal.email, role: ctx.principal.role };
  if (!owner.includes('@')) throw new InvalidArgument(`"owner" must be "me" or an email address, got ${JSON.stringify(owner)}.`, 'Call get_teams to see your colleagues\' email addresses.');
  const user = await userByEmail(ctx.store.db, ctx.principal.orgId, owner);
  if (!user) throw new InvalidArgument(`No user with email ${owner} in your organization.`, 'Call get_teams to see your colleagues\' email addresses, or use "me".');
  return user;
}

export type DealRef = { deal_id?: string; deal_key?: string; prospect_org?: string };

/** A deal by id, by deal_key (id or CRM opportunity id), or by prospect_org + deal_id — if visible. */
export async function resolveDeal(ctx: ToolContext, ref: DealRef, tool: string): Promise<DealRow> {
  const key = ref.deal_id ?? ref.deal_key;
  if (!key) throw new InvalidArgument(`${tool} needs "deal_id" (or its alias "deal_key").`, 'Call get_deals to find deal ids.');
  const domain = ref.prospect_org ? normalizeProspectOrg(ref.prospect_org) : undefined;
  const deal = await findVisibleDeal(ctx.store.db, ctx.principal, key, domain);
  if (!deal) {
    throw new NotFound(
      `No deal ${JSON.stringify(key)}${domain ? ` at ${domain}` : ''} is visible to you.`,
      'It does not exist or is outside your visibility. Call get_deals (optionally with search) to find deal ids.',
    );
  }
  return deal;
}
