// Anchor of W2 and W3: the raw SQL query that fetches the same rows as the tool, behind a bare
// node:http server (so both sides pay the same HTTP), with nothing else — no auth, no protocol,
// no validation, no formatting. DATABASE_URL picks node:sqlite (same pragmas as the service) or a
// pg pool (same size as the service's default); BENCH_SQL is the query with `?` placeholders and
// BENCH_PARAMS its parameters as a JSON array.
import { createServer } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

const url = process.env.DATABASE_URL ?? '';
const text = process.env.BENCH_SQL ?? 'select 1';
const params = JSON.parse(process.env.BENCH_PARAMS ?? '[]') as (string | number)[];

let run: (gone: import('node:events').EventEmitter) => Promise<unknown[]>;
if (url.startsWith('sqlite:')) {
  const db = new DatabaseSync(url.slice('sqlite:'.length), { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  const statement = db.prepare(text);
  run = async () => statement.all(...params);
} else {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX ?? '10') });
  let n = 0;
  const numbered = text.replace(/\?/g, () => `$${++n}`);
  // A query whose requester has gone (the load generator stops at the end of a round) is
  // cancelled: PostgreSQL would otherwise finish it, and a slow one (the W3 ranking query runs for
  // seconds) would take CPU from the contender measured next.
  run = async (gone) => {
    const client = await pool.connect();
    const cancel = () => void pool.query('select pg_cancel_backend($1)', [(client as unknown as { processID: number }).processID]).catch(() => undefined);
    gone.once('close', cancel);
    try {
      return (await client.query({ name: 'bench', text: numbered, values: params })).rows;
    } finally {
      gone.off('close', cancel);
      client.release();
    }
  };
}

createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200).end('ok');
    return;
  }
  req.resume();
  req.on('end', () => {
    // Skip a request whose requester has gone (queued behind a slow synchronous SQLite query when
    // its round ended): its work would only take CPU from the contender measured next.
    if (res.destroyed || req.socket.destroyed) return;
    run(res).then(
      (rows) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rows })),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
