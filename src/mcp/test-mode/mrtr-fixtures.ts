// The conformance suite's 2026-07-28 fixtures: multi-round-trip tools and prompt (SEP-2322,
// `input_required` results with `inputRequests` and HMAC-protected `requestState`) and the
// stateless-server diagnostics (SEP-2575: `test_missing_capability`, `test_streaming_elicitation`,
// `test_logging_tool`). Behaviour as each scenario's description in the suite states it.
import { randomBytes } from 'node:crypto';
import { acceptedContent, createRequestStateCodec, inputRequired, inputResponse, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** Signs requestState (spec: MRTR server requirements 4–5). One process serves every round, so a per-process key will do here. */
export const requestStateCodec = createRequestStateCodec<Record<string, unknown>>({ key: randomBytes(32), ttlSeconds: 600 });

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const askName = (message = 'What is your name?') => inputRequired.elicit({ message, requestedSchema: z.object({ name: z.string() }) });
const nameFrom = (responses: Record<string, unknown> | undefined, key: string) => String(acceptedContent(responses, key)?.name ?? 'unknown');

/** The client's declared capabilities from the request's `_meta` envelope. */
function clientCapabilities(ctx: ServerContext): Record<string, unknown> {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const caps = envelope.clientCapabilities ?? envelope['io.modelcontextprotocol/clientCapabilities'];
  return caps && typeof caps === 'object' ? (caps as Record<string, unknown>) : {};
}

export function registerMrtrFixtures(server: McpServer): void {
  const noArgs = z.object({});

  server.registerTool('test_input_required_result_elicitation', { description: 'MRTR: one elicitation round', inputSchema: noArgs }, async (_a, ctx) => {
    const responses = ctx.mcpReq.inputResponses;
    if (inputResponse(responses, 'user_name').kind === 'elicit') return text(`Hello, ${nameFrom(responses, 'user_name')}!`);
    return inputRequired({ inputRequests: { user_name: askName() } });
  });

  server.registerTool('test_input_required_result_sampling', { description: 'MRTR: one sampling round', inputSchema: noArgs }, async (_a, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'capital_question');
    if (answer.kind === 'sampling') {
      const content = answer.result.content;
      const said = !Array.isArray(content) && content.type === 'text' ? content.text : 'no response';
      return text(`Sampling result: ${said}`);
    }
    return inputRequired({ inputRequests: { capital_question: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 }) } });
  });

  server.registerTool('test_input_required_result_list_roots', { description: 'MRTR: one roots/list round', inputSchema: noArgs }, async (_a, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'client_roots');
    if (answer.kind === 'roots') return text(`Found ${answer.roots.length} root(s): ${answer.roots.map((r) => r.uri).join(', ')}`);
    return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
  });

  server.registerTool('test_input_required_result_request_state', { description: 'MRTR: requestState round trip', inputSchema: noArgs }, async (_a, ctx) => {
    const state = ctx.mcpReq.requestState<Record<string, unknown>>();
    if (state?.kind === 'request-state' && acceptedContent(ctx.mcpReq.inputResponses, 'confirm') !== undefined) return text('state-ok: requestState validated');
    return inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: z.object({ ok: z.boolean() }) }) },
      requestState: await requestStateCodec.mint({ kind: 'request-state' }),
    });
  });

  server.registerTool('test_input_required_result_tampered_state', { description: 'MRTR: integrity-protected requestState', inputSchema: noArgs }, async (_a, ctx) => {
    // A tampered state never reaches here: the codec's verify hook answers -32602 first.
    if (ctx.mcpReq.requestState<Record<string, unknown>>()?.kind === 'tamper-check') return text('state-ok: integrity verified');
    return inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: z.object({ ok: z.boolean() }) }) },
      requestState: await requestStateCodec.mint({ kind: 'tamper-check' }),
    });
  });

  server.registerTool('test_input_required_result_multiple_inputs', { description: 'MRTR: three input requests at once', inputSchema: noArgs }, async (_a, ctx) => {
    const responses = ctx.mcpReq.inputResponses;
    const state = ctx.mcpReq.requestState<Record<string, unknown>>();
    const greeting = inputResponse(responses, 'greeting');
    const roots = inputResponse(responses, 'client_roots');
    if (state?.kind === 'multiple-inputs' && inputResponse(responses, 'user_name').kind === 'elicit' && greeting.kind === 'sampling' && roots.kind === 'roots') {
      const said = !Array.isArray(greeting.result.content) && greeting.result.content.type === 'text' ? greeting.result.content.text : 'Hello there!';
      return text(`Name: ${nameFrom(responses, 'user_name')}; Greeting: ${said}; Roots: ${roots.roots.length}`);
    }
    return inputRequired({
      inputRequests: {
        user_name: askName(),
        greeting: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await requestStateCodec.mint({ kind: 'multiple-inputs' }),
    });
  });

  server.registerTool('test_input_required_result_multi_round', { description: 'MRTR: two rounds with evolving requestState', inputSchema: noArgs }, async (_a, ctx) => {
    const responses = ctx.mcpReq.inputResponses;
    const state = ctx.mcpReq.requestState<Record<string, unknown>>();
    if (state?.round === 1 && inputResponse(responses, 'step1').kind === 'elicit') {
      return inputRequired({
        inputRequests: { step2: inputRequired.elicit({ message: 'Step 2: What is your favorite color?', requestedSchema: z.object({ color: z.string() }) }) },
        requestState: await requestStateCodec.mint({ round: 2, name: nameFrom(responses, 'step1') }),
      });
    }
    if (state?.round === 2 && inputResponse(responses, 'step2').kind === 'elicit') {
      return text(`Multi-round complete for ${String(state.name)} who likes ${String(acceptedContent(responses, 'step2')?.color ?? 'unknown')}`);
    }
    return inputRequired({ inputRequests: { step1: askName('Step 1: What is your name?') }, requestState: await requestStateCodec.mint({ round: 1 }) });
  });

  server.registerTool('test_input_required_result_capabilities', { description: 'MRTR: asks only for what the client declared', inputSchema: noArgs }, async (_a, ctx) => {
    const caps = clientCapabilities(ctx);
    const requests: Record<string, ReturnType<typeof inputRequired.listRoots>> = {};
    if (caps.elicitation) requests.user_name = askName();
    if (caps.sampling) requests.greeting = inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 });
    if (caps.roots) requests.client_roots = inputRequired.listRoots();
    if (Object.keys(requests).length === 0 || ctx.mcpReq.inputResponses) return text('capabilities respected');
    return inputRequired({ inputRequests: requests });
  });

  server.registerPrompt('test_input_required_result_prompt', { description: 'MRTR on prompts/get: asks for context first' }, async (ctx) => {
    if (inputResponse(ctx.mcpReq.inputResponses, 'user_context').kind === 'elicit') {
      const context = String(acceptedContent(ctx.mcpReq.inputResponses, 'user_context')?.context ?? 'unknown');
      return { messages: [{ role: 'user', content: { type: 'text', text: `Prompt with context: ${context}` } }] };
    }
    return inputRequired({ inputRequests: { user_context: inputRequired.elicit({ message: 'What context should the prompt use?', requestedSchema: z.object({ context: z.string() }) }) } });
  });

  // SEP-2575 diagnostics.
  // Asks for sampling whatever the client declared: the SDK answers -32021 (HTTP 400) with
  // requiredCapabilities when the client did not declare it (a thrown error would become isError).
  server.registerTool('test_missing_capability', { description: 'Needs the client sampling capability', inputSchema: noArgs }, async () => {
    return inputRequired({ inputRequests: { sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }) } });
  });
  server.registerTool('test_streaming_elicitation', { description: 'Elicits through an input_required result, never a stream request', inputSchema: noArgs }, async (_a, ctx) => {
    if (inputResponse(ctx.mcpReq.inputResponses, 'user_name').kind === 'elicit') return text(`Hello, ${nameFrom(ctx.mcpReq.inputResponses, 'user_name')}!`);
    return inputRequired({ inputRequests: { user_name: askName() } });
  });
  server.registerTool('test_logging_tool', { description: 'Logs only when the request set a logLevel', inputSchema: noArgs }, async (_a, ctx) => {
    const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
    if (envelope.logLevel ?? envelope['io.modelcontextprotocol/logLevel']) {
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: 'test_logging_tool ran' } });
    }
    return text('logging tool done');
  });
}
