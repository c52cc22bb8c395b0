// What every part of the HTTP app is given: built once at start, shared by all requests.
import type { Config } from '../config/load.ts';
import type { Limits } from '../limits/index.ts';
import type { Logger, RequestLogger } from '../log.ts';
import type { Store } from '../store/database.ts';

export type AppContext = {
  config: Config;
  store: Store;
  limits: Limits;
  logger: Logger;
};

/** Per-request values set by the middlewares and read by handlers. */
export type AppEnv = {
  Variables: {
    requestId: string;
    log: RequestLogger;
    /** The client's address (src/http/client-address.ts): X-Forwarded-For only from trusted proxies. */
    clientAddress: string;
  };
};
