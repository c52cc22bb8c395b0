// The one boundary every tool call passes: control characters in any argument are the caller's
// mistake (invalid_argument, not retryable), on both dialects — PostgreSQL refuses NUL in text.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dialectsUnderTest } from '../support/databases.ts';
import { errorCode, seededStore, type Seeded } from './support.ts';

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
