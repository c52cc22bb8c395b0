// A free TCP port on loopback: listen on 0, read the port, close. Shared by the tests and the bench.
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts something on a port picked by `freePort`, and on a fresh one when the start fails with
 * EADDRINUSE: between the pick and the bind, a server of a suite running at the same time can take
 * the port (suites run in parallel processes). Up to `attempts` tries; any other failure is thrown.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= attempts || !isAddressInUse(error)) throw error;
    }
  }
}

function isAddressInUse(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EADDRINUSE' || String(error).includes('EADDRINUSE');
}
