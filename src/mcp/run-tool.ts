// The one boundary every tool call passes: parse the arguments (a bad field is a tool error that
// names it), run the handler, check the result against the output schema, and turn every failure
// into a safe isError result. Database errors and stack traces stop here.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolContext, ToolDefinition } from './define-tool.ts';
import { InvalidArgument, ToolError, toolErrorResult, Unavailable } from './errors.ts';

/**
 * On a result whose text block is the JSON of its structuredContent, that JSON string, so a
 * response writer can reuse it instead of serializing the same object twice (direct-call.ts).
 * A symbol key: JSON.stringify and the SDK never see it.
 */
export const STRUCTURED_JSON = Symbol('structuredJson');

export type ToolLog = { error(obj: object, msg: string): void };

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length ? issue.path.join('.') : '(arguments)';
  if (issue.code === 'unrecognized_keys') return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return `"${path}": ${issue.message}`;
}

export function invalidArguments(tool: ToolDefinition, error: z.ZodError): InvalidArgument {
  const problems = error.issues.slice(0, 5).map(describeIssue).join('; ');
  const known = tool.inputSchema instanceof z.ZodObject ? Object.keys(tool.inputSchema.shape).join(', ') : '';
  return new InvalidArgument(`Invalid arguments for ${tool.name}: ${problems}.`, `Fix the named field and call ${tool.name} again.${known ? ` Accepted arguments: ${known}.` : ''}`);
}

// Control characters other than tab and newlines mean nothing in any argument, and PostgreSQL
// refuses NUL in text: refuse them here, once for every tool, as the caller's mistake.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function controlCharacterPath(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return CONTROL.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const hit = controlCharacterPath(item, [...path, String(i)]);
      if (hit) return hit;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const hit = controlCharacterPath(item, [...path, key]);
      if (hit) return hit;
    }
  }
  return undefined;
}

export async function runTool(tool: ToolDefinition, rawArgs: unknown, ctx: ToolContext, log?: ToolLog): Promise<CallToolResult> {
  try {
    const badPath = controlCharacterPath(rawArgs);
    if (badPath) {
      throw new InvalidArgument(
        `Invalid arguments for ${tool.name}: "${badPath.join('.') || '(arguments)'}" contains a control character.`,
        `Remove control characters (such as NUL) from that field and call ${tool.name} again.`,
      );
    }
    const parsed = tool.inputSchema.safeParse(rawArgs ?? {});
    if (!parsed.success) throw invalidArguments(tool, parsed.error);
    const output = await tool.handler(parsed.data, ctx);
    const checked = tool.outputSchema.safeParse(output.structured);
    if (!checked.success) {
      log?.error({ tool: tool.name, issues: checked.error.issues.slice(0, 3) }, 'tool output does not match its outputSchema');
      throw new Unavailable(`${tool.name} could not build a valid result.`, 'This is a server defect; retrying will not help. Try other arguments or another tool.', false);
    }
    const structured = checked.data as Record<string, unknown>;
    if (output.text !== undefined) return { content: [{ type: 'text', text: output.text }], structuredContent: structured };
    const json = JSON.stringify(structured);
    const result: CallToolResult = { content: [{ type: 'text', text: json }], structuredContent: structured };
    Object.defineProperty(result, STRUCTURED_JSON, { value: json });
    return result;
  } catch (error) {
    if (error instanceof ToolError) return toolErrorResult(error);
    log?.error({ tool: tool.name, err: error }, 'tool failed');
    return toolErrorResult(new Unavailable(`${tool.name} failed because of a temporary server problem.`, 'Retry in a few seconds; if it keeps failing, try narrower arguments.'));
  }
}
