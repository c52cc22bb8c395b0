// How agents (templates) look in tool results.
import { z } from 'zod';
import type { AgentsTable } from '../../store/sales/schema.ts';
import { parseJson, AgentPropertiesJson } from '../../store/sales/json.ts';

export const AgentItemSchema = z.object({
  template_id: z.string().describe('Pass to agent_results or get_qualification_results.'),
  name: z.string(),
  description: z.string(),
  category: z.enum(['qualification', 'coaching', 'extraction', 'summary', 'dispatch']),
  type: z.enum(['extraction', 'scoring', 'hybrid', 'dispatch']),
  methodology: z.string().nullable(),
  scope: z.enum(['meeting', 'deal']),
  read_with: z.enum(['agent_results', 'get_qualification_results']),
  visibility: z.enum(['org', 'team', 'personal']),
  is_primary_qualification: z.boolean(),
  properties: z.array(z.object({ key: z.string(), title: z.string(), max_score: z.number().nullable() })),
  max_total_score: z.number().nullable(),
});

export function agentItem(a: AgentsTable): z.infer<typeof AgentItemSchema> {
  const properties = parseJson(AgentPropertiesJson, a.properties);
  const scored = properties.filter((p) => p.max_score !== null);
  return {
    template_id: a.id,
    name: a.name,
    description: a.description,
    category: a.category,
    type: a.type,
    methodology: a.methodology,
    scope: a.scope,
    read_with: a.scope === 'deal' && a.category === 'qualification' ? 'get_qualification_results' : 'agent_results',
    visibility: a.visibility,
    is_primary_qualification: a.is_primary === 1,
    properties,
    max_total_score: scored.length ? scored.reduce((s, p) => s + (p.max_score ?? 0), 0) : null,
  };
}
