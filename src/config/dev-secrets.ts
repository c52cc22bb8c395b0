// Development only: secrets generated once and kept under DATA_DIR so restarts keep tokens valid.
// Production refuses this path (see load.ts) and requires HASH_SECRET and ENCRYPTION_KEY.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';

const DevSecrets = z.object({ hashSecret: z.string().min(32), encryptionKey: z.string().min(40) });
export type DevSecrets = z.infer<typeof DevSecrets>;

export function loadOrCreateDevSecrets(dataDir: string): DevSecrets {
  const file = join(dataDir, 'dev-secrets.json');
  try {
    return DevSecrets.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const fresh: DevSecrets = {
    hashSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32).toString('base64'),
  };
  try {
    // 'wx': if another process created it first, use theirs.
    writeFileSync(file, JSON.stringify(fresh, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return DevSecrets.parse(JSON.parse(readFileSync(file, 'utf8')));
  }
}
