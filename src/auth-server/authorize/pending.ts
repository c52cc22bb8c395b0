// A validated authorization request kept server-side under an opaque handle while the browser signs
// in and consents (AS-30: the browser carries only the handle). It holds either the request to
// approve or an error to deliver once the user is authenticated (AS-11).
import { z } from 'zod';
import type { AppContext } from '../../http/context.ts';
import { consumePendingRequest, findPendingRequest, insertPendingRequest } from '../../store/oauth-pending-requests.ts';
import { now } from '../../store/ids.ts';
import { keyedHash, looksLike, newSecret } from '../secrets.ts';

/** Long enough to sign in upstream, short enough to be useless later (≤ 10 min, AS-31). */
export const PENDING_TTL_MS = 10 * 60 * 1000;

const Common = {
  clientId: z.string(),
  redirectUri: z.string(),
  state: z.string().optional(),
};

const Pending = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('request'), ...Common, codeChallenge: z.string(), scope: z.string(), resource: z.string() }),
  z.object({ kind: z.literal('error'), ...Common, error: z.string(), description: z.string() }),
]);

export type PendingRequest = z.infer<typeof Pending>;

export async function savePending(ctx: AppContext, pending: PendingRequest): Promise<string> {
  const handle = newSecret('handle');
  const at = now();
  await insertPendingRequest(ctx.store.db, {
    handleHash: keyedHash(ctx.config.secrets.hash, handle),
    clientId: pending.clientId,
    request: JSON.stringify(pending),
    createdAt: at,
    expiresAt: at + PENDING_TTL_MS,
  });
  return handle;
}

export async function loadPending(ctx: AppContext, handle: string | undefined): Promise<PendingRequest | undefined> {
  if (!handle || !looksLike('handle', handle)) return undefined;
  const text = await findPendingRequest(ctx.store.db, keyedHash(ctx.config.secrets.hash, handle), now());
  if (!text) return undefined;
  const parsed = Pending.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

/** Single use: true for exactly one caller (approve, deny or a silent re-approval). */
export async function consumePending(ctx: AppContext, handle: string): Promise<boolean> {
  return consumePendingRequest(ctx.store.db, keyedHash(ctx.config.secrets.hash, handle), now());
}

export const resumePath = (handle: string) => `/oauth/consent?request=${encodeURIComponent(handle)}`;
