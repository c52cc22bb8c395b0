// MCP messages start in the order they were read, STARTS_PER_TURN a turn of the event loop, with the
// sockets read between turns; other requests start as Node reads them (src/http/arrival-order.ts).
// The turns are told apart by a ticker that runs once a turn (setImmediate), with requests joined
// directly; over sockets only what holds however the kernel splits the reads into rounds is checked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { inArrivalOrder, STARTS_PER_TURN } from '../../src/http/arrival-order.ts';
import { isMcpPost } from '../../src/server.ts';
import { tokenThroughOAuth } from '../support/oauth-flow.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Started = { method: string; seq: number };

/** A request joined directly, on a connection of its own unless one is given. */
const joined = (seq: number, socket: { writable: boolean } = { writable: true }) =>
  ({ method: 'POST', url: '/mcp', headers: { 'x-seq': String(seq) }, socket }) as unknown as IncomingMessage;
const noResponse = {} as ServerResponse;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

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
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2', 'x-seq': req.headers['x-seq'] }).end('ok'));
    };
    // A POST waits in line. One marked `x-close` has its connection closed by the server as it is read, as a
    // forced shutdown (closeAllConnections) closes those of waiting requests.
    const queued = (req: IncomingMessage) => {
      if (req.headers['x-close'] !== undefined) req.socket.destroy();
      return req.method === 'POST';
    };
    server = createServer(inArrivalOrder(listener, queued));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const request = (method: 'GET' | 'POST', seq: number, extra = '') =>
    method === 'POST'
      ? `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Seq: ${seq}\r\n${extra}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`
      : `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Seq: ${seq}\r\n${extra}\r\n`;

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

  it("answers a connection's pipelined requests in the order it sent them, a GET behind POSTs included", async () => {
    const [socket] = await connections(server, port, 1);
    let got = '';
    const all = new Promise<void>((resolve) => socket!.on('data', (chunk: Buffer) => {
      got += chunk.toString();
      if ((got.match(/\r\n\r\nok/g) ?? []).length === 3) resolve();
    }));
    socket!.write(request('POST', 2001) + request('POST', 2002) + request('GET', 2003));
    await all;
    socket!.destroy();
    assert.deepEqual([...got.matchAll(/x-seq: (\d+)/g)].map((m) => m[1]), ['2001', '2002', '2003']);
  });

  it('never starts a request whose connection was closed while it waited', async () => {
    const [closing, open] = await connections(server, port, 2);
    const closed = new Promise<void>((resolve) => closing!.once('close', () => resolve()));
    const done = answered(open!);
    closing!.write(request('POST', 3001, 'X-Close: 1\r\n'));
    await closed;
    open!.write(request('POST', 3002));
    await done;
    open!.destroy();
    assert.equal(started.some((s) => s.seq === 3001), false, 'the closed connection\'s request was not started');
    assert.equal(started.at(-1)?.seq, 3002);
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
    await nextTurn();
    const joinedIn = now;
    for (let i = 0; i < n; i++) listener(joined(i), noResponse);
    while (order.length < n) await nextTurn();
    on = false;
    assert.deepEqual(order.map((o) => o.seq), Array.from({ length: n }, (_, i) => i));
    const first = order[0]!.turn;
    assert.ok(first > joinedIn, 'nothing starts in the turn it joined');
    assert.deepEqual(order.map((o) => o.turn - first), Array.from({ length: n }, (_, i) => Math.floor(i / STARTS_PER_TURN)));
  });

  it('starts each request in the asynchronous context it arrived in', async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const listener = inArrivalOrder(() => seen.push(context.getStore()), () => true);
    context.run('first', () => listener(joined(1), noResponse));
    context.run('second', () => listener(joined(2), noResponse));
    assert.deepEqual(seen, [], 'nothing starts before the turn');
    await nextTurn();
    assert.deepEqual(seen, ['first', 'second']);
  });

  it('gives a connection one place in line: what it sends meanwhile joins the end when its request starts', async () => {
    const order: number[] = [];
    const listener = inArrivalOrder((req) => order.push(Number(req.headers['x-seq'])), () => true);
    const pipelining = { writable: true };
    // The pipelining connection sends 0, 1, 2 (and 7 later); four other connections send 3, 4, 5, 6.
    for (const seq of [0, 1, 2]) listener(joined(seq, pipelining), noResponse);
    for (const seq of [3, 4, 5, 6]) listener(joined(seq), noResponse);
    while (order.length < 7) await nextTurn();
    listener(joined(7, pipelining), noResponse);
    while (order.length < 8) await nextTurn();
    assert.deepEqual(order, [0, 3, 4, 5, 6, 1, 2, 7]);
  });

  it('never starts a request whose connection can no longer be written to, nor what that connection sent after it', async () => {
    const order: number[] = [];
    const listener = inArrivalOrder((req) => order.push(Number(req.headers['x-seq'])), () => true);
    const leaving = { writable: true };
    listener(joined(0), noResponse);
    listener(joined(1, leaving), noResponse);
    listener(joined(2, leaving), noResponse);
    listener(joined(3), noResponse);
    leaving.writable = false; // the client left (or the server closed the connection) while they waited
    await nextTurn();
    await nextTurn();
    assert.deepEqual(order, [0, 3]);
    // The line goes on: a request of another connection, after the dropped ones, starts.
    listener(joined(4), noResponse);
    await nextTurn();
    assert.deepEqual(order, [0, 3, 4]);
  });

  it('starts the rest of a turn after one start throws, and what its connection sent after it, and the error still reaches the process', async () => {
    // In a process of its own: the error is uncaught there, as a throw in Node's own request listener is.
    const script = `
      import { inArrivalOrder } from ${JSON.stringify(new URL('../../src/http/arrival-order.ts', import.meta.url).href)};
      const started = [];
      const errors = [];
      process.on('uncaughtException', (error) => errors.push(error.message));
      process.on('beforeExit', () => console.log(JSON.stringify({ started, errors })));
      const listener = inArrivalOrder((req) => {
        started.push(req.seq);
        if (req.seq === 1) throw new Error('listener threw');
      }, () => true);
      // 1 and 2 share a connection: 2 waits apart until 1 starts, and must not be stranded by 1's throw.
      const pipelining = { writable: true };
      for (const [seq, socket] of [[0, { writable: true }], [1, pipelining], [2, pipelining], [3, { writable: true }]]) listener({ seq, socket }, {});
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script]);
    assert.deepEqual(JSON.parse(stdout), { started: [0, 1, 3, 2], errors: ['listener threw'] });
  });
});

/** POST targets the router takes for /mcp (other spellings must not pass the line), and ones it does not. */
const MCP_TARGETS = ['/mcp', '/mcp?session=1', 'http://a/mcp', 'https://a/mcp?x=1', '/mcp#f', '/./mcp', '/x/../mcp', '/%6Dcp', '/%6d%63%70'];
const OTHER_POST_TARGETS = ['/mcp/', '/mcpx', '/oauth/token', '/', '//a/mcp', '/%E0%A4%A', 'http://a/mcp/'];

describe('the service: only POST /mcp waits in line', () => {
  it('puts in line every POST to /mcp, with a query or not, however spelled, and nothing else', () => {
    for (const url of MCP_TARGETS) assert.equal(isMcpPost({ method: 'POST', url }), true, url);
    for (const url of OTHER_POST_TARGETS) assert.equal(isMcpPost({ method: 'POST', url }), false, url);
    for (const [method, url] of [['GET', '/mcp'], ['DELETE', '/mcp'], ['GET', '/healthz'], ['GET', '/./mcp']] as const) {
      assert.equal(isMcpPost({ method, url }), false, `${method} ${url}`);
    }
  });

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

  it('waits exactly the targets the router serves as POST /mcp', async () => {
    const { port } = new URL(service.baseUrl);
    const answeredByMcp = (target: string) => new Promise<boolean>((resolve, reject) => {
      const s = connect(Number(port), '127.0.0.1', () => s.write(`POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`));
      let got = '';
      s.on('data', (chunk: Buffer) => (got += chunk.toString()));
      s.once('error', reject);
      // /mcp refuses a message without a token with its own challenge, naming its resource metadata.
      s.once('close', () => resolve(got.startsWith('HTTP/1.1 401') && got.includes('oauth-protected-resource/mcp')));
    });
    for (const target of [...MCP_TARGETS, ...OTHER_POST_TARGETS]) {
      assert.equal(await answeredByMcp(target), isMcpPost({ method: 'POST', url: target }), target);
    }
  });
});

describe('the service: stopping while MCP messages wait in line', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => {
    await service.close();
  });

  it('answers every message read before the stop, then closes the store', async () => {
    const { access_token } = await tokenThroughOAuth(service.baseUrl, 'mia.member@northwind.example');
    const { hostname, port } = new URL(service.baseUrl);
    const n = 4;
    // The stop begins as Node reads the last of the messages, before it joins the line: it waits there while the service stops.
    let read = 0;
    let stopping: Promise<void> | undefined;
    service.server.prependListener('request', (req: IncomingMessage) => {
      if (req.method === 'POST' && ++read === n) stopping = service.stop('test: stop while messages wait');
    });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_meetings', arguments: { limit: 1 } } });
    const answers = await Promise.all(Array.from({ length: n }, () => new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest({
        host: hostname, port, path: '/mcp', method: 'POST', agent: false,
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject).end(body);
    })));
    assert.ok(stopping, 'the stop began while the messages were read');
    await stopping;
    await assert.rejects(service.ctx.store.ping(), 'the store is closed once the stop is done');
    for (const { status, text } of answers) {
      assert.equal(status, 200);
      assert.match(text, /"meetings"/);
      assert.doesNotMatch(text, /"isError":true/);
    }
  });
});
