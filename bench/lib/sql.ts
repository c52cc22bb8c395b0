// One read query against a dataset from the harness (to pick a meeting, count rows, …): node:sqlite
// or pg, with `?` placeholders for both.
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

export async function queryDataset<T>(databaseUrl: string, text: string, params: (string | number)[] = []): Promise<T[]> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new DatabaseSync(databaseUrl.slice('sqlite:'.length), { readOnly: true, timeout: 5000 });
    try {
      return db.prepare(text).all(...params) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let n = 0;
    return (await client.query(text.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
  } finally {
    await client.end();
  }
}
