// Starts the real service in this process on a free port, on a fresh test database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/load.ts';
import type { Logger } from '../../src/log.ts';
import type { Dialect } from '../../src/store/database.ts';
import { startService, type RunningService } from '../../src/server.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { freePort, onFreePort } from './free-port.ts';
export { freePort, onFreePort };

export type TestService = RunningService & {
  baseUrl: string;
  database: TestDatabase;
  /** Stops the service and drops its database. */
  close(): Promise<void>;
};

export type TestServiceOptions = {
  dialect?: Dialect;
  env?: Record<string, string>;
  logger?: Logger;
};

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = await createTestDatabase(options.dialect ?? 'sqlite');
  const logger = options.logger ?? pino({ level: 'silent' });
  const dataDir = mkdtempSync(join(tmpdir(), 'aas-data-'));
  const { service, baseUrl } = await onFreePort(async (port) => {
    const baseUrl = `http://localhost:${port}`;
    const config = loadConfig({
      APP_ENV: 'development',
      PORT: String(port),
      BASE_URL: baseUrl,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      LOG_FORMAT: 'json',
      ...options.env,
    });
    return { service: await startService(config, logger), baseUrl };
  });
  return {
    ...service,
    baseUrl,
    database,
    close: async () => {
      await service.stop('test finished');
      await database.drop();
    },
  };
}
