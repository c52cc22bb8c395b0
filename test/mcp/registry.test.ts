// Executable conventions for the tool registry (conventions.md rule 9): every tool has
// annotations, an output schema, a test file, and a description under its budget.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { tools } from '../../src/mcp/tools/index.ts';

const NAMES = ['list_meetings', 'get_meeting', 'get_meeting_transcript', 'ask_documents', 'list_agents', 'agent_results', 'get_qualification_results', 'get_deals', 'get_deal', 'get_teams', 'list_reports', 'read_report'];

describe('tool registry', () => {
  it('holds exactly the 12 tools the spec names', () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), [...NAMES].sort());
  });

  for (const tool of tools) {
    describe(tool.name, () => {
      it('is annotated read-only, idempotent, non-destructive and closed-world, with a title', () => {
        assert.deepEqual(tool.annotations, { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
        assert.ok(tool.title.length > 0);
      });

      it('has a description under 1,200 characters that says what comes next', () => {
        assert.ok(tool.description.length > 80 && tool.description.length < 1200, `${tool.description.length} chars`);
      });

      it('has object input and output schemas that convert to JSON Schema, every input field described', () => {
        const input = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as { type: string; properties: Record<string, { description?: string }> };
        const output = z.toJSONSchema(tool.outputSchema, { io: 'output' }) as { type: string };
        assert.equal(input.type, 'object');
        assert.equal(output.type, 'object');
        for (const [field, schema] of Object.entries(input.properties)) assert.ok(schema.description, `${tool.name}.${field} has no description`);
      });

      it('has a test file of its own', () => {
        const file = new URL(`./tools/${tool.name.replaceAll('_', '-')}.test.ts`, import.meta.url);
        assert.ok(existsSync(file), `missing ${file.pathname}`);
      });

      it('lives in a file named after it', () => {
        assert.ok(existsSync(new URL(`../../src/mcp/tools/${tool.name.replaceAll('_', '-')}.ts`, import.meta.url)));
      });
    });
  }
});
