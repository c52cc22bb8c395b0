// Bench-only preload (`node --import`): the MCP endpoint's per-user and per-client rate limits are
// constants (src/mcp/index.ts: 120 and 1,200 requests a minute), which a benchmark — one user at
// full speed — exceeds in its first second. Until they are configuration variables (named
// *_PER_MINUTE, which the harness raises), this keeps the limiter in the request path (same calls,
// same bookkeeping) but makes its `mcp-*` limiters consume 0 points. Used only when the config has
// no MCP rate variable; the results say so.
import { RateLimiterMemory } from 'rate-limiter-flexible';

type Consume = (this: RateLimiterMemory, key: string | number, points?: number, options?: Record<string, unknown>) => ReturnType<RateLimiterMemory['consume']>;
const original = RateLimiterMemory.prototype.consume as Consume;
const patched: Consume = function (key, points = 1, options = {}) {
  return original.call(this, key, this.keyPrefix.startsWith('mcp-') ? 0 : points, options);
};
RateLimiterMemory.prototype.consume = patched as RateLimiterMemory['consume'];
