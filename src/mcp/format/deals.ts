// How a deal's header looks in tool results (get_deals, get_deal, get_qualification_results).
import { z } from 'zod';
import type { ToolContext } from '../define-tool.ts';
import type { DealRow } from '../../store/sales/deals.ts';
import type { UserLabel } from '../../store/sales/lookups.ts';
import { appLink, PersonSchema } from './common.ts';

export const DealHeaderSchema = z.object({
  deal_id: z.string().describe('Opaque deal id; pass to get_deal, get_qualification_results, agent_results or list_meetings.'),
  name: z.string(),
  prospect_org: z.string(),
  account_name: z.string(),
  stage: z.string(),
  status: z.enum(['open', 'won', 'lost']),
  amount: z.number(),
  currency: z.string(),
  close_date: z.string().describe('YYYY-MM-DD'),
  owner: PersonSchema,
  crm_linked: z.boolean(),
  url: z.string(),
  crm_url: z.string().nullable(),
});

export function dealHeader(ctx: ToolContext, d: DealRow, owners: Map<string, UserLabel>): z.infer<typeof DealHeaderSchema> {
  const owner = owners.get(d.owner_id);
  return {
    deal_id: d.id,
    name: d.name,
    prospect_org: d.account_domain,
    account_name: d.account_name,
    stage: d.stage,
    status: d.status,
    amount: d.amount,
    currency: d.currency,
    close_date: d.close_date,
    owner: { name: owner?.name ?? 'Former user', email: owner?.email ?? null },
    crm_linked: d.crm_system !== 'none' && d.crm_opportunity_id !== null,
    url: appLink(ctx, 'deals', d.id),
    crm_url: d.crm_url,
  };
}

export const dealRefParams = {
  deal_key: z.string().min(1).max(200).optional().describe('Alias of deal_id: the deal id or its CRM opportunity id.'),
  prospect_org: z.string().min(1).max(253).optional().describe('With deal_id: the prospect\'s domain; then deal_id may also be the CRM opportunity id.'),
};
