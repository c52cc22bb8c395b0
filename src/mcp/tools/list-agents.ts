// list_agents: the AI agent templates the caller can see, with their scored properties.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, limitParam } from '../params.ts';
import { cursorBinding, decodePosition, pageOf, TextIdPosition } from '../cursor.ts';
import { fitItems, listPage, LIST_BUDGET_CHARS, pageFields, ScopeSchema, scopeOf } from '../format/common.ts';
import { agentItem, AgentItemSchema } from '../format/agents.ts';
import { listAgents } from '../../store/sales/agents.ts';

const inputSchema = z.strictObject({
  category: z.enum(['qualification', 'coaching', 'extraction', 'summary', 'dispatch']).optional().describe('Only agents of this category.'),
  methodology: z.string().min(2).max(40).optional().describe('Only agents of this methodology, e.g. MEDDPICC, MEDDICC, BANT, SPICED (case-insensitive).'),
  q: z.string().min(1).max(200).optional().describe('Text in the agent\'s name or description.'),
  limit: limitParam('agents'),
  cursor: cursorParam('list_agents'),
});

const outputSchema = z.object({ agents: z.array(AgentItemSchema), ...pageFields, truncated: z.boolean(), scope: ScopeSchema });

export const listAgentsTool = defineTool({
  name: 'list_agents',
  title: 'List agents',
  description:
    'Lists the AI agent templates you can see (qualification such as MEDDPICC or BANT, call scorecards, extractors, report writers): template_id, category, methodology, scope (meeting or deal), the ordered properties with max scores, and read_with, the tool that reads its results. Filter by category, methodology or q. Next: agent_results for meeting-scope agents, get_qualification_results for deal-scope qualification agents.',
  inputSchema,
  outputSchema,
  annotations: readOnly('List agents'),
  async handler(args, ctx) {
    const { cursor, limit, ...query } = args;
    const binding = cursorBinding(ctx, 'list_agents', query);
    const after = cursor ? decodePosition(binding, cursor, TextIdPosition) : null;
    const rows = await listAgents(ctx.store.db, ctx.principal, query, after, limit + 1);
    const fitted = fitItems(rows.slice(0, limit).map(agentItem), LIST_BUDGET_CHARS);
    return listPage('agents', fitted, { ...pageOf(binding, rows, limit, fitted.kept.length, (a) => [a.name, a.id]), truncated: fitted.cut, scope: scopeOf(ctx) });
  },
});
