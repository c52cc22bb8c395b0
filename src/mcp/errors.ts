// Tool errors with intent-named classes and one formatter (tools.md rule 8). A tool failure is a
// result with isError, an actionable first text block and a machine-readable second block; never
// structuredContent (clients validate it against outputSchema even on errors), never internals.
import type { CallToolResult } from '@modelcontextprotocol/server';

export type ToolErrorCode = 'not_found' | 'forbidden' | 'no_transcript' | 'invalid_argument' | 'rate_limited' | 'unavailable';

export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly hint: string;
  readonly retryable: boolean;
  constructor(code: ToolErrorCode, message: string, hint: string, retryable = false) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.hint = hint;
    this.retryable = retryable;
  }
}

export class NotFound extends ToolError {
  constructor(message: string, hint: string) {
    super('not_found', message, hint);
  }
}

export class Forbidden extends ToolError {
  constructor(message: string, hint: string) {
    super('forbidden', message, hint);
  }
}

export class InvalidArgument extends ToolError {
  constructor(message: string, hint: string) {
    super('invalid_argument', message, hint);
  }
}

export class NoTranscript extends ToolError {
  constructor(message: string, hint: string) {
    super('no_transcript', message, hint);
  }
}

export class Unavailable extends ToolError {
  constructor(message: string, hint: string, retryable = true) {
    super('unavailable', message, hint, retryable);
  }
}

export function toolErrorResult(error: ToolError): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: `${error.message} ${error.hint}`.trim() },
      { type: 'text', text: JSON.stringify({ error: { code: error.code, message: error.message, retryable: error.retryable, hint: error.hint } }) },
    ],
  };
}
