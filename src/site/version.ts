// The service version, read once from package.json (parsed, not trusted) for the MCP manifest,
// the server card and the status page.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const PackageJson = z.object({ version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/) });

export const SERVICE_VERSION: string = PackageJson.parse(
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')),
).version;
