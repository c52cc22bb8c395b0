// Requests that wait in line (the service's: every POST /mcp, src/server.ts) start in the order they
// were read, a few per turn of the event loop, with the sockets read again between turns.
//
// Node runs a request's listener while it reads the socket, in the order the kernel reports ready
// sockets. Under load that order is not arrival: a connection answered last in one round of reads
// sends its next request just after the next round was collected, and the kernel keeps reporting
// the connections of the round before it first. Such a connection waited two rounds for every
// request while the others waited one (W1 at 32 connections, on SQLite: two connections at ~100 ms
// against ~50 ms for the rest, for the whole run; its p99 was twice its p50). Here a request
// matching `queued` is only put in line when it is read, and the line starts in turns of
// STARTS_PER_TURN, each turn after the sockets were read: every request waits for those read
// before it, and no request is passed over for a round.
//
// Reading first and then running several requests in a row also took less CPU a request than
// running each while its socket is read (SQLite, W1's load on a 2-core AMD EPYC, alternating:
// README "Performance"). One request a turn did not: each turn then paid for one.
import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** How many queued requests start in one turn of the event loop before the sockets are read again. */
export const STARTS_PER_TURN = 8;

/**
 * `listener` for every request, through one line for those `queued` selects (they start in the
 * order they were read, STARTS_PER_TURN a turn); any other request starts at once. Each starts in
 * the asynchronous context it arrived in.
 */
export function inArrivalOrder(listener: Listener, queued: (req: IncomingMessage) => boolean): Listener {
  const line: (() => void)[] = [];
  let turnScheduled = false;

  const turn = () => {
    const starting = line.splice(0, STARTS_PER_TURN);
    if (line.length > 0) setImmediate(turn);
    else turnScheduled = false;
    for (const start of starting) start();
  };

  return (req, res) => {
    if (!queued(req)) {
      listener(req, res);
      return;
    }
    line.push(AsyncResource.bind(() => listener(req, res)));
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(turn);
    }
  };
}
