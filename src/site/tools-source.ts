// Where the tools reference gets its tool definitions: the MCP tool registry the server registers,
// so the page cannot drift from `tools/list`.
import { tools } from '../mcp/tools/index.ts';
import type { ToolDefinitionLike } from './tools-reference.ts';

export const TOOL_DEFINITIONS: readonly ToolDefinitionLike[] | undefined = tools;
