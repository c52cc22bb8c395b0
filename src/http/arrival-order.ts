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
//
// A connection holds one place in line, so one that pipelines many messages cannot push the others
// back (before the line, Node started a pipelined batch all at once as it read it). Nothing is
// started for a connection that is gone: a client that left, or one closed by a forced shutdown,
// would only have its answer thrown away after the work, or the store closed under it. A request
// that does not wait (another route) starts at once, even when its connection pipelined it behind
// one that waits: Node still sends their answers in the order they were asked.
import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** How many queued requests start in one turn of the event loop before the sockets are read again. */
export const STARTS_PER_TURN = 8;

/**
 * `listener` for every request, through one line for those `queued` selects (they start in the
 * order they were read, STARTS_PER_TURN a turn); any other request starts at once. Each starts in
 * the asynchronous context it arrived in.
 *
 * A connection has one request in line at a time: one that pipelines more keeps the rest apart and
 * puts the next at the line's end when the one before starts, so it takes its turn among the other
 * connections instead of ahead of them. A request whose connection can no longer be written to
 * (the client left, or the server closed it) when its turn comes is dropped with the rest of that
 * connection's, unstarted: there is no one to answer.
 */
export function inArrivalOrder(listener: Listener, queued: (req: IncomingMessage) => boolean): Listener {
  const line: { socket: Socket; start: () => void }[] = [];
  /** Each connection with a request in line: the requests it sent since, oldest first (most have none: `none`). */
  const held = new WeakMap<Socket, (() => void)[]>();
  const none: (() => void)[] = [];
  let turnScheduled = false;

  const turn = () => {
    try {
      for (let started = 0; started < STARTS_PER_TURN && line.length > 0;) {
        const { socket, start } = line.shift()!;
        const open = socket.writable;
        const next = open ? held.get(socket)?.shift() : undefined;
        if (next) line.push({ socket, start: next });
        else held.delete(socket);
        if (!open) continue;
        started++;
        start();
      }
    } finally {
      // Also after a start threw (the error goes on to the process, as Node's own would): the rest still start.
      if (line.length > 0) setImmediate(turn);
      else turnScheduled = false;
    }
  };

  return (req, res) => {
    if (!queued(req)) {
      listener(req, res);
      return;
    }
    const start = AsyncResource.bind(() => listener(req, res));
    const own = held.get(req.socket);
    if (own !== undefined) {
      // One of its connection's requests is in line: this one waits apart, behind it.
      if (own === none) held.set(req.socket, [start]);
      else own.push(start);
      return;
    }
    held.set(req.socket, none);
    line.push({ socket: req.socket, start });
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(turn);
    }
  };
}
