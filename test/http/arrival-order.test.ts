// Tool calls start in the order they were read, STARTS_PER_TURN a turn of the event loop, with the
// sockets read between turns; other requests start as Node reads them (src/http/arrival-order.ts).
// Requests are written on many connections in one synchronous block, so the server reads them all
// in one round; a ticker that runs once a turn (setImmediate) tells the turns apart.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { inArrivalOrder, STARTS_PER_TURN } from '../../src/http/arrival-order.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Started = { method: string; seq: number; turn: number };

/** Opens n connections and waits until the server has accepted each. */
async function connections(server: Server, port: number, n: number): Promise<Socket[]> {
  let accepted = 0;
  const all = new Promise<void>((resolve) => {
    const onConnection = () => {
      if (++accepted === n) {
        server.off('connection', onConnection);
        resolve();
      }
    };
    server.on('connection', onConnection);
  });
  const sockets = await Promise.all(
    Array.from({ length: n }, () => new Promise<Socket>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    })),
  );
  await all;
  return sockets;
}

describe('requests started in arrival order', () => {
  let server: Server;
  let port: number;
  let turn = 0;
  let ticking = true;
  const started: Started[] = [];
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };

  before(async () => {
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      started.push({ method: req.method ?? '', seq: Number(req.headers['x-seq']), turn });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok'));
    };
    server = createServer(inArrivalOrder(listener, (req) => req.method === 'POST'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    ticking = false;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const request = (method: 'GET' | 'POST', seq: number) =>
    method === 'POST'
      ? `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Seq: ${seq}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`
      : `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Seq: ${seq}\r\n\r\n`;

  /** Resolves when the socket has received a whole response (a 2-byte body). */
  const answered = (s: Socket) =>
    new Promise<void>((resolve) => {
      let got = '';
      s.on('data', (chunk: Buffer) => {
        got += chunk.toString();
        if (/\r\n\r\nok$/.test(got)) resolve();
      });
    });

  it('starts queued requests in the order they were read, a few a turn, and others at once', async () => {
    const posts = 2 * STARTS_PER_TURN + 3;
    const sockets = await connections(server, port, posts + 1);
    const done = sockets.map(answered);
    setImmediate(tick);
    // One synchronous block: every request is in the kernel before the server reads any.
    for (let i = 0; i < posts; i++) {
      sockets[i]!.write(request('POST', i));
      if (i === STARTS_PER_TURN + 1) sockets[posts]!.write(request('GET', 1000));
    }
    await Promise.all(done);
    for (const s of sockets) s.destroy();

    const gets = started.filter((s) => s.method === 'GET');
    const queued = started.filter((s) => s.method === 'POST');
    assert.deepEqual(queued.map((s) => s.seq), Array.from({ length: posts }, (_, i) => i), 'queued requests start in the order they were read');
    // The GET, read after STARTS_PER_TURN + 2 of them, starts while they wait.
    assert.equal(started[0]?.method, 'GET');
    assert.equal(gets.length, 1);
    // STARTS_PER_TURN in each turn, in consecutive turns after the one that read them.
    const first = queued[0]!.turn;
    assert.ok(first > gets[0]!.turn, 'queued requests start after the turn that read them');
    assert.deepEqual(
      queued.map((s) => s.turn - first),
      Array.from({ length: posts }, (_, i) => Math.floor(i / STARTS_PER_TURN)),
    );
  });

  it('starts each request in the asynchronous context it arrived in', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const listener = inArrivalOrder(() => seen.push(context.getStore()), () => true);
    const req = { method: 'POST', url: '/mcp' } as IncomingMessage;
    const res = {} as ServerResponse;
    context.run('first', () => listener(req, res));
    context.run('second', () => listener(req, res));
    assert.deepEqual(seen, [], 'nothing starts before the turn');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, ['first', 'second']);
  });
});

describe('the service: only POST /mcp waits in line', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => {
    await service.close();
  });

  it('answers a health check read after MCP messages before them', async () => {
    const { port } = new URL(service.baseUrl);
    const sockets = await connections(service.server, Number(port), 5);
    const order: string[] = [];
    const done = sockets.map((s, i) => new Promise<void>((resolve) => s.once('data', (chunk: Buffer) => {
      order.push(`${i === 2 ? 'health' : 'tool call'} ${chunk.toString().split(' ')[1]}`);
      resolve();
    })));
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_meetings","arguments":{}}}';
    sockets.forEach((s, i) => s.write(i === 2
      ? 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n'
      : `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${call.length}\r\n\r\n${call}`));
    await Promise.all(done);
    for (const s of sockets) s.destroy();
    // Without a token each tool call is refused (401), as quickly as the health check is answered.
    assert.deepEqual(order, ['health 200', 'tool call 401', 'tool call 401', 'tool call 401', 'tool call 401']);
  });
});
