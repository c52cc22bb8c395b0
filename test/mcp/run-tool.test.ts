// The one boundary every tool call passes: control characters in any argument are the caller's
// mistake (invalid_argument, not retryable), on both dialects — PostgreSQL refuses NUL in text;
// and a result given with its JSON is checked against its object.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { z } from 'zod';
import { errorCode, seededStore, type Seeded } from './support.ts';
import { runTool } from '../../src/mcp/run-tool.ts';
import { defineTool, readOnly, type ToolContext } from '../../src/mcp/define-tool.ts';

const MEMBER = 'mia.member@northwind.example';

for (const dialect of dialectsUnderTest()) {
  describe(`tool call boundary (${dialect})`, () => {
    let s: Seeded;
    before(async () => {
      s = await seededStore(dialect, 40);
    });
    after(() => s.cleanup());

    it('should refuse a NUL in a text argument as invalid_argument naming the field', async () => {
      const result = await s.call(MEMBER, 'list_meetings', { q: 'pricing\u0000call' });
      assert.equal(errorCode(result), 'invalid_argument');
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      assert.match(text, /"q" contains a control character/);
      const detail = result.content[1]?.type === 'text' ? (JSON.parse(result.content[1].text) as { error: { retryable: boolean } }) : undefined;
      assert.equal(detail?.error.retryable, false);
    });

    it('should name the element of a list argument that holds a control character', async () => {
      const result = await s.call(MEMBER, 'list_meetings', { participant_emails: ['ok@example.com', 'bad\u0007@example.com'] });
      assert.equal(errorCode(result), 'invalid_argument');
      assert.match(result.content[0]?.type === 'text' ? result.content[0].text : '', /"participant_emails\.1"/);
    });

    it('should still accept tabs and newlines in free text', async () => {
      const result = await s.call(MEMBER, 'ask_documents', { question: 'How do we\thandle\nsecurity reviews?' });
      assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 300));
    });
  });
}

describe('tool call boundary: a result given with its JSON (list pages)', () => {
  const outputSchema = z.object({ items: z.array(z.object({ id: z.string() })), has_more: z.boolean() });
  const toolGiving = (structured: unknown, json: string) =>
    defineTool({ name: 'preset_json', title: 'Preset JSON', description: 'test', inputSchema: z.strictObject({}), outputSchema, annotations: readOnly('Preset JSON'), handler: async () => ({ structured: structured as z.input<typeof outputSchema>, json }) });
  const ctx = {} as ToolContext;

  it('sends the JSON as the text block, with the object as structuredContent', async () => {
    const structured = { items: [{ id: 'a' }], has_more: false };
    const result = await runTool(toolGiving(structured, JSON.stringify(structured)), {}, ctx);
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: JSON.stringify(structured) }]);
    assert.deepEqual(result.structuredContent, structured);
  });

  // Under the test runner (as here) a handler whose JSON or object is off fails loudly, as a server defect.
  it('fails a result whose JSON is not the JSON of its object', async () => {
    const result = await runTool(toolGiving({ items: [{ id: 'a' }], has_more: false }, '{"items":[],"has_more":false}'), {}, ctx);
    assert.equal(errorCode(result), 'unavailable');
  });

  it('fails a result holding a key its output schema would strip', async () => {
    const structured = { items: [{ id: 'a', secret: 'internal' }], has_more: false };
    const result = await runTool(toolGiving(structured, JSON.stringify(structured)), {}, ctx);
    assert.equal(errorCode(result), 'unavailable');
  });
});
