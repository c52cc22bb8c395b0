// MCP messages start in the order they were read, STARTS_PER_TURN a turn of the event loop, with the
// sockets read between turns; other requests start as Node reads them (src/http/arrival-order.ts).
// The turns are told apart by a ticker that runs once a turn (setImmediate), with requests joined
// directly; over sockets only what holds however the kernel splits the reads into rounds is checked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { inArrivalOrder, STARTS_PER_TURN } from '../../src/http/arrival-order.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Started = { method: string; seq: number };

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
  const started: Started[] = [];

  before(async () => {
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      started.push({ method: req.method ?? '', seq: Number(req.headers['x-seq']) });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok'));
    };
    server = createServer(inArrivalOrder(listener, (req) => req.method === 'POST'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
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

  it('starts others at once while queued requests wait for a turn', async () => {
    const posts = 2 * STARTS_PER_TURN + 3;
    const sockets = await connections(server, port, posts + 1);
    const done = sockets.map(answered);
    for (let i = 0; i < posts; i++) {
      sockets[i]!.write(request('POST', i));
      if (i === STARTS_PER_TURN + 1) sockets[posts]!.write(request('GET', 1000));
    }
    await Promise.all(done);
    for (const s of sockets) s.destroy();

    // However the kernel splits the reads into rounds, the GET, written among the POSTs, starts
    // before any of them: they wait for a turn, it does not.
    assert.equal(started[0]?.method, 'GET');
    assert.equal(started.filter((s) => s.method === 'GET').length, 1);
    assert.deepEqual(started.filter((s) => s.method === 'POST').map((s) => s.seq).sort((a, b) => a - b), Array.from({ length: posts }, (_, i) => i));
  });

  it('starts queued requests in the order they joined, STARTS_PER_TURN a turn, in consecutive turns', async () => {
    const order: { seq: number; turn: number }[] = [];
    let now = 0;
    let on = true;
    const count = () => {
      now++;
      if (on) setImmediate(count);
    };
    const n = 2 * STARTS_PER_TURN + 3;
    const listener = inArrivalOrder((req) => order.push({ seq: Number(req.headers['x-seq']), turn: now }), () => true);
    setImmediate(count);
    await new Promise((resolve) => setImmediate(resolve));
    const joined = now;
    for (let i = 0; i < n; i++) listener({ method: 'POST', url: '/mcp', headers: { 'x-seq': String(i) } } as unknown as IncomingMessage, {} as ServerResponse);
    while (order.length < n) await new Promise((resolve) => setImmediate(resolve));
    on = false;
    assert.deepEqual(order.map((o) => o.seq), Array.from({ length: n }, (_, i) => i));
    const first = order[0]!.turn;
    assert.ok(first > joined, 'nothing starts in the turn it joined');
    assert.deepEqual(order.map((o) => o.turn - first), Array.from({ length: n }, (_, i) => Math.floor(i / STARTS_PER_TURN)));
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
