// list_agents: the AI agent templates the caller can see, with their scored properties.
import { z } from 'zod';
import { defineTool, readOnly } from '../define-tool.ts';
import { cursorParam, limitParam } from '../params.ts';
import { decodeCursor, encodeCursor } from '../cursor.ts';
import { InvalidArgument } from '../errors.ts';
import { fitItems, LIST_BUDGET_CHARS, pageFields, ScopeSchema, scopeOf } from '../format/common.ts';
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
    const binding = { key: ctx.cursorKey, orgId: ctx.principal.orgId, userId: ctx.principal.userId, tool: 'list_agents', query };
    let after: [string, string] | null = null;
    if (cursor) {
      const [name, id] = decodeCursor(binding, cursor, '');
      if (typeof name !== 'string' || typeof id !== 'string') throw new InvalidArgument('The cursor is malformed.', 'Call list_agents again without "cursor".');
      after = [name, id];
    }
    const rows = await listAgents(ctx.store.db, ctx.principal, query, after, limit + 1);
    const page = rows.slice(0, limit);
    const { kept, cut } = fitItems(page.map(agentItem), LIST_BUDGET_CHARS);
    const hasMore = rows.length > limit || cut;
    const last = page[kept.length - 1];
    return {
      structured: { agents: kept, next_cursor: hasMore && last ? encodeCursor(binding, [last.name, last.id]) : null, has_more: hasMore, truncated: cut, scope: scopeOf(ctx) },
    };
  },
});
