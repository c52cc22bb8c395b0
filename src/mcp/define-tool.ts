// The shape of one tool: name, schemas, annotations and a handler over the caller's principal.
// Each tool lives in tools/<name>.ts and is listed in tools/index.ts.
import type { z } from 'zod';
import type { Store } from '../store/database.ts';
import type { Principal } from '../access/principal.ts';

export type ToolContext = {
  store: Store;
  principal: Principal;
  /** The platform web app that record links point to (config APP_URL). */
  appUrl: string;
  /** Key that signs cursors (config HASH_SECRET). */
  cursorKey: string;
  /** "Now" for this call, epoch ms (time windows, upcoming vs past). */
  now: number;
};

export type ToolAnnotations = {
  title: string;
  readOnlyHint: true;
  destructiveHint: false;
  idempotentHint: true;
  openWorldHint: false;
};

/**
 * What a handler returns: the structured result, and the text block (JSON of it unless given).
 * `json`, when the handler already has it (a list page, format/common.ts listPage), is
 * JSON.stringify(structured), so runTool need not serialize the result again.
 */
export type ToolOutput<O> = { structured: O; text?: string; json?: string };

export type ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  annotations: ToolAnnotations;
  handler: (args: z.output<I>, ctx: ToolContext) => Promise<ToolOutput<z.input<O>>>;
};

/** Every tool reads and never writes (tools.md rule 9). */
export function readOnly(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
}

export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): ToolDefinition {
  return def as unknown as ToolDefinition;
}
