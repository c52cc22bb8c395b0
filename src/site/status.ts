// The live part of the status page: the same checks as /readyz, rendered as Markdown.
import type { AppContext } from '../http/context.ts';
import { SERVICE_VERSION } from './version.ts';

export async function statusMarkdown(ctx: AppContext, now: Date = new Date()): Promise<string> {
  const [database, limits] = await Promise.all([
    ctx.store.ping(2000).then(
      () => 'operational',
      () => 'unavailable',
    ),
    ctx.limits.health().then((h) => (h === 'ok' ? 'operational' : 'degraded (per-instance fallback)')),
  ]);
  const overall = database === 'operational' ? (limits === 'operational' ? 'All systems operational' : 'Operational, with degraded rate limiting') : 'Service unavailable';
  return [
    `**${overall}.** Checked at ${now.toISOString().replace(/\.\d{3}Z$/, 'Z')}.`,
    '',
    '| Component | Status |',
    '|---|---|',
    `| MCP endpoint and authorization server | ${database === 'operational' ? 'operational' : 'unavailable'} |`,
    `| Database | ${database} |`,
    `| Rate limits (${ctx.limits.kind}) | ${limits} |`,
    '',
    `Service version ${SERVICE_VERSION}. API description version 1.0.0.`,
  ].join('\n');
}
