// The one boundary every tool call passes: parse the arguments (a bad field is a tool error that
// names it), run the handler, check the result against the output schema, and turn every failure
// into a safe isError result. Database errors and stack traces stop here.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isDeepStrictEqual } from 'node:util';
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

/**
 * Under the test runner, a handler that gives its result's JSON (ToolOutput.json) must give an
 * object the output schema passes unchanged (no key the schema would strip) and exactly the JSON
 * JSON.stringify makes of it: otherwise the text block and structuredContent could disagree with
 * what the schema promises, and the tests fail instead.
 */
const VERIFY_RESULTS = process.env.NODE_TEST_CONTEXT !== undefined || process.env.AGENT_ACCESS_VERIFY_RESULTS === '1';

function verifyPresetJson(tool: string, structured: unknown, checked: unknown, json: string): void {
  if (!isDeepStrictEqual(structured, checked)) throw new Error(`${tool}: its result holds something its output schema strips or changes`);
  if (json !== JSON.stringify(structured)) throw new Error(`${tool}: the JSON it gives is not the JSON of its result`);
}

/** The result whose text block is the JSON of its structuredContent, with that JSON kept for the response writer. */
function jsonResult(structured: Record<string, unknown>, json: string): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: json }], structuredContent: structured };
  Object.defineProperty(result, STRUCTURED_JSON, { value: json });
  return result;
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
    if (output.json !== undefined) {
      // A list page with its JSON made once (format/common.ts listPage): what is sent is the
      // handler's object, which the schema has just passed, and that JSON.
      if (VERIFY_RESULTS) verifyPresetJson(tool.name, output.structured, checked.data, output.json);
      return jsonResult(output.structured as Record<string, unknown>, output.json);
    }
    const structured = checked.data as Record<string, unknown>;
    if (output.text !== undefined) return { content: [{ type: 'text', text: output.text }], structuredContent: structured };
    return jsonResult(structured, JSON.stringify(structured));
  } catch (error) {
    if (error instanceof ToolError) return toolErrorResult(error);
    log?.error({ tool: tool.name, err: error }, 'tool failed');
    return toolErrorResult(new Unavailable(`${tool.name} failed because of a temporary server problem.`, 'Retry in a few seconds; if it keeps failing, try narrower arguments.'));
  }
}
