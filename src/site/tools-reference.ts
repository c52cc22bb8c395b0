// The tools reference page, generated from the tool definitions the MCP server registers (zod 4
// schemas → z.toJSONSchema), so the page cannot drift from what `tools/list` returns.
import { z } from 'zod';

export type ToolAnnotationsLike = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** The shape the MCP tool registry exports; schemas may be zod objects or raw zod shapes. */
export type ToolDefinitionLike = {
  name: string;
  title?: string;
  description: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: ToolAnnotationsLike;
};

/** The spec's tool names (agent-access-service.md, "POST /mcp"), in the spec's order. */
export const SPEC_TOOL_NAMES = [
  'list_meetings',
  'get_meeting',
  'get_meeting_transcript',
  'ask_documents',
  'list_agents',
  'agent_results',
  'get_qualification_results',
  'get_deals',
  'get_deal',
  'get_teams',
  'list_reports',
  'read_report',
] as const;

type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  [key: string]: unknown;
};

function isZodShape(value: unknown): value is Record<string, z.ZodType> {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => v instanceof z.ZodType);
}

export function toJsonSchema(schema: unknown, io: 'input' | 'output'): JsonSchema | undefined {
  const zodSchema = schema instanceof z.ZodType ? schema : isZodShape(schema) ? z.object(schema) : undefined;
  if (!zodSchema) return undefined;
  return z.toJSONSchema(zodSchema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map(typeOf))].join(' or ');
  if (schema.type === 'array') return schema.items ? `array of ${typeOf(schema.items)}` : 'array';
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  const base = schema.type ?? 'any';
  return schema.format ? `${base} (${schema.format})` : base;
}

function constraints(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.minimum !== undefined) notes.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`max ${schema.maximum}`);
  if (schema.maxItems !== undefined) notes.push(`at most ${schema.maxItems} items`);
  return notes;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();

/** Rows for an object's properties; result objects also list their nested fields one level down. */
function rows(schema: JsonSchema | undefined, prefix: string, depth: number): string[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).flatMap(([name, property]) => {
    const notes = constraints(property);
    const description = [property.description ?? '', notes.length ? `(${notes.join(', ')})` : ''].filter(Boolean).join(' ');
    const row = `| \`${prefix}${name}\` | ${cell(typeOf(property))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(description)} |`;
    if (depth === 0) return [row];
    const nested = property.properties ? { schema: property, path: `${prefix}${name}.` } : property.items?.properties ? { schema: property.items, path: `${prefix}${name}[].` } : undefined;
    return nested ? [row, ...rows(nested.schema, nested.path, depth - 1)] : [row];
  });
}

function fieldTable(schema: JsonSchema | undefined, kind: 'Argument' | 'Field'): string {
  const body = rows(schema, '', kind === 'Field' ? 1 : 0);
  if (body.length === 0) return kind === 'Argument' ? 'No arguments.\n' : 'Not declared.\n';
  const header = kind === 'Argument' ? '| Argument | Type | Required | Description |' : '| Field | Type | Always present | Description |';
  return [header, '|---|---|---|---|', ...body].join('\n') + '\n';
}

function annotationLine(annotations: ToolAnnotationsLike | undefined): string {
  if (!annotations) return 'Annotations: none declared.';
  const hints = [
    annotations.readOnlyHint ? 'read-only' : 'may modify data',
    annotations.destructiveHint === false ? 'not destructive' : 'possibly destructive',
    annotations.idempotentHint ? 'idempotent' : 'not idempotent',
    annotations.openWorldHint === false ? 'closed world (this service only)' : 'open world',
  ];
  return `Annotations: ${hints.join(', ')}.`;
}

export function renderToolSection(tool: ToolDefinitionLike): string {
  const title = tool.title ?? tool.annotations?.title;
  return [
    `## ${tool.name}`,
    '',
    title ? `**${title}.** ${tool.description.trim()}` : tool.description.trim(),
    '',
    annotationLine(tool.annotations),
    '',
    `### Arguments of ${tool.name}`,
    '',
    fieldTable(toJsonSchema(tool.inputSchema, 'input'), 'Argument'),
    `### Result of ${tool.name}`,
    '',
    fieldTable(toJsonSchema(tool.outputSchema, 'output'), 'Field'),
  ].join('\n');
}

/** The Markdown body of the tools reference: an index, then one section per tool. */
export function renderToolsReference(tools: readonly ToolDefinitionLike[]): string {
  const index = tools.map((tool) => `- [\`${tool.name}\`](#${tool.name})${tool.title ? `: ${tool.title}` : ''}`).join('\n');
  return [index, '', ...tools.map(renderToolSection)].join('\n');
}

/** Used until the tool registry exists: the names from the spec, and a note saying so. */
export function renderToolNamesOnly(): string {
  return [
    '> The tool definitions are not part of this build yet, so only the tool names are listed. Connect an MCP',
    '> client and call `tools/list` for the full input and output schemas.',
    '',
    ...SPEC_TOOL_NAMES.map((name) => `- \`${name}\``),
    '',
  ].join('\n');
}
