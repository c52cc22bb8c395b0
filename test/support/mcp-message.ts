// Reading a JSON-RPC answer from POST /mcp, which may come as JSON or as a text/event-stream.

/**
 * The JSON-RPC message in a response body: the JSON itself, or the last SSE `data:` event's (the
 * response follows any notifications on the stream). Throws when there is no message to read.
 */
export function rpcMessageIn(text: string, contentType: string | null): unknown {
  if ((contentType ?? '').includes('text/event-stream')) {
    const data = text.split('\n').filter((line) => line.startsWith('data: ')).at(-1);
    if (data === undefined) throw new Error(`no SSE data event in: ${text.slice(0, 200)}`);
    return JSON.parse(data.slice('data: '.length));
  }
  return JSON.parse(text);
}

/** The JSON-RPC message of a response, whether sent as JSON or as an SSE stream. */
export async function rpcMessage(res: Response): Promise<Record<string, unknown>> {
  return rpcMessageIn(await res.text(), res.headers.get('content-type')) as Record<string, unknown>;
}
