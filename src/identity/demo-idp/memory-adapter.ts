// Storage for the demo identity provider's artifacts (interactions, sessions, codes, grants): this
// process's memory, expiring entries on read. Right for a development stand-in that never runs in
// production and whose sign-ins last seconds; a restart simply ends demo sign-ins in flight.
type Payload = Record<string, unknown> & { uid?: string; grantId?: string; userCode?: string; consumed?: number };
type Entry = { payload: Payload; expiresAt: number };

const stores = new Map<string, Map<string, Entry>>();

export class DemoMemoryAdapter {
  readonly #entries: Map<string, Entry>;

  constructor(name: string) {
    let entries = stores.get(name);
    if (!entries) {
      entries = new Map();
      stores.set(name, entries);
    }
    this.#entries = entries;
  }

  async upsert(id: string, payload: Payload, expiresIn: number): Promise<void> {
    if (this.#entries.size > 1000) this.#prune();
    this.#entries.set(id, { payload, expiresAt: Date.now() + (expiresIn || 3600) * 1000 });
  }

  #prune(): void {
    const at = Date.now();
    for (const [id, entry] of this.#entries) if (entry.expiresAt <= at) this.#entries.delete(id);
  }

  async find(id: string): Promise<Payload | undefined> {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry.payload;
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    for (const [id, entry] of this.#entries) if (entry.payload.uid === uid) return this.find(id);
    return undefined;
  }

  async findByUserCode(userCode: string): Promise<Payload | undefined> {
    for (const [id, entry] of this.#entries) if (entry.payload.userCode === userCode) return this.find(id);
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, entry] of this.#entries) if (entry.payload.grantId === grantId) this.#entries.delete(id);
  }
}
