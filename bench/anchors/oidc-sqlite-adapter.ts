// Storage adapters for oidc-provider (its documented adapter interface) for the W4 anchor: node:sqlite
// (the service's database kind, pragmas and checkpoints: src/store/sqlite.ts's applyPragmas and
// the same worker thread; one table, payloads as JSON text, expiry checked on read) and an
// unbounded in-memory map.
import { DatabaseSync } from 'node:sqlite';
import { applyPragmas } from '../../src/store/sqlite.ts';
import { startCheckpointer } from '../../src/store/sqlite-checkpointer.ts';

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number; ref?: string };

let db: DatabaseSync | undefined;

export function openAdapterDatabase(path: string): void {
  db = new DatabaseSync(path, { timeout: 5000 });
  applyPragmas(db);
  db.exec(`create table if not exists oidc_payloads (
    model text not null, id text not null, payload text not null, grant_id text, user_code text, uid text,
    expires_at integer, primary key (model, id))`);
  db.exec('create index if not exists oidc_payloads_grant on oidc_payloads (grant_id)');
  startCheckpointer(path, db);
}

const nowS = () => Math.floor(Date.now() / 1000);

export class SqliteAdapter {
  private readonly model: string;
  constructor(model: string) {
    this.model = model;
  }
  private get db(): DatabaseSync {
    if (!db) throw new Error('openAdapterDatabase first');
    return db;
  }
  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    this.db
      .prepare(
        `insert into oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at) values (?, ?, ?, ?, ?, ?, ?)
         on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
           user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
      )
      .run(this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ? nowS() + expiresIn : null);
  }
  private one(where: string, value: string): Payload | undefined {
    const row = this.db.prepare(`select payload, expires_at from oidc_payloads where model = ? and ${where} = ?`).get(this.model, value) as
      | { payload: string; expires_at: number | null }
      | undefined;
    if (!row || (row.expires_at !== null && row.expires_at <= nowS())) return undefined;
    return JSON.parse(row.payload) as Payload;
  }
  async find(id: string) {
    return this.one('id', id);
  }
  async findByUserCode(userCode: string) {
    return this.one('user_code', userCode);
  }
  async findByUid(uid: string) {
    return this.one('uid', uid);
  }
  async consume(id: string): Promise<void> {
    const found = this.one('id', id);
    if (!found) return;
    this.db.prepare('update oidc_payloads set payload = ? where model = ? and id = ?').run(JSON.stringify({ ...found, consumed: nowS() }), this.model, id);
  }
  async destroy(id: string): Promise<void> {
    this.db.prepare('delete from oidc_payloads where model = ? and id = ?').run(this.model, id);
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    this.db.prepare('delete from oidc_payloads where grant_id = ?').run(grantId);
  }
}

/**
 * An unbounded in-memory adapter. oidc-provider's own development adapter is an LRU of 1,000
 * entries: under a benchmark it evicts live grants and refreshes start failing.
 */
const memory = new Map<string, Payload & { expiresAt?: number }>();

export class MapAdapter {
  private readonly model: string;
  constructor(model: string) {
    this.model = model;
  }
  private key = (id: string) => `${this.model}:${id}`;
  private live(key: string): Payload | undefined {
    const p = memory.get(key);
    if (!p || (p.expiresAt !== undefined && p.expiresAt <= nowS())) return undefined;
    return p;
  }
  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    memory.set(this.key(id), { ...payload, ...(expiresIn ? { expiresAt: nowS() + expiresIn } : {}) });
    if (payload.grantId) memory.set(`grant:${payload.grantId}:${this.key(id)}`, { ref: this.key(id) });
    if (payload.userCode) memory.set(`userCode:${payload.userCode}`, { ref: this.key(id) });
    if (payload.uid) memory.set(`uid:${payload.uid}`, { ref: this.key(id) });
  }
  async find(id: string) {
    return this.live(this.key(id));
  }
  async findByUserCode(userCode: string) {
    const ref = memory.get(`userCode:${userCode}`)?.ref;
    return typeof ref === 'string' ? this.live(ref) : undefined;
  }
  async findByUid(uid: string) {
    const ref = memory.get(`uid:${uid}`)?.ref;
    return typeof ref === 'string' ? this.live(ref) : undefined;
  }
  async consume(id: string): Promise<void> {
    const p = memory.get(this.key(id));
    if (p) p.consumed = nowS();
  }
  async destroy(id: string): Promise<void> {
    memory.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    const prefix = `grant:${grantId}:`;
    for (const [k, v] of memory) {
      if (!k.startsWith(prefix)) continue;
      if (typeof v.ref === 'string') memory.delete(v.ref);
      memory.delete(k);
    }
  }
}
