// Anchor (a) of W1: the ceiling of this machine — a bare node:http server that reads the body,
// parses it (to answer with the request's id) and returns a fixed JSON-RPC tools/call result.
// No framework, no protocol checks, no database.
import { createServer } from 'node:http';

const result = { content: [{ type: 'text', text: '{"limit":25}' }], resultType: 'complete' };

createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let id: unknown = null;
    try {
      id = (JSON.parse(Buffer.concat(chunks).toString()) as { id?: unknown }).id ?? null;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
