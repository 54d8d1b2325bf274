/**
 * Claims across the processes that share a PostgreSQL database (`--database`): a piece of work (a
 * job, a webhook delivery) is done by the process that holds its PostgreSQL session advisory lock,
 * on a connection of its own. PostgreSQL drops the lock the moment that connection ends (a kill, a
 * crash, a close), so whatever a dead process held is free for another at once. Each kind of work
 * has its first key (jobs "VPJ1", webhooks "VPW1"); the second is the hash of the work's ID.
 *
 * A lock is re-entrant within one session, so this process never asks twice for the same ID: the
 * IDs it holds, or is asking for, are kept here and skipped (the sweep of another part of this
 * process cannot take what this one holds).
 */
import type { Client } from 'pg';

/** How often a process looks for the work of processes that are gone. */
export const SWEEP_MS = 1000;

/**
 * A connection of its own that is made again when lost (the server restarted): `onConnect` runs on
 * each new one before it is used (the claims take their locks again).
 */
class Reconnecting {
  readonly #make: () => Client;
  readonly #onConnect: (client: Client) => Promise<void>;
  /** Called when a connection that was made ends other than by {@link end}: its locks are gone. */
  onLost: () => void = () => {};
  /** Per connection: lets it go (once), as lost. */
  readonly #drop = new WeakMap<Client, () => void>();
  #client: Promise<Client> | undefined;
  #ended = false;
  /** The statement before, so that each waits its turn (pg no longer queues them on one client). */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(make: () => Client, onConnect: (client: Client) => Promise<void> = async () => {}) {
    this.#make = make;
    this.#onConnect = onConnect;
  }

  query<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
    const run = this.#tail.then(() => this.#query<R>(sql, values));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #query<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
    if (this.#ended) throw new Error('the claims are closed');
    const client = await (this.#client ??= this.#connect());
    try {
      return (await client.query<R>(sql, values)).rows;
    } catch (error) {
      // A connection that broke while idle says so only here: once more, on a new one.
      if ('severity' in (error as object) && !(error as { code?: string }).code?.startsWith('57P')) throw error;
      this.#drop.get(client)?.();
      this.#client = undefined;
      if (this.#ended) throw error;
      return (await (await (this.#client ??= this.#connect())).query<R>(sql, values)).rows;
    }
  }

  /**
   * Not `async`: the promise kept in `#client` must be `connecting` itself (an async function would
   * wrap it in another), so that a lost connection is recognised and forgotten, and the next query
   * connects again instead of failing on a connection that ended.
   */
  #connect(): Promise<Client> {
    if (this.#ended) return Promise.reject(new Error('the claims are closed'));
    const client = this.#make();
    let made = false;
    const lost = () => {
      if (this.#client === connecting) this.#client = undefined;
      void client.end().catch(() => undefined);
      if (made && !this.#ended) this.onLost();
      made = false;
    };
    this.#drop.set(client, lost);
    client.on('error', lost);
    client.on('end', lost);
    const connecting = (async () => {
      try {
        await client.connect();
        made = true;
        await this.#onConnect(client);
        return client;
      } catch (error) {
        lost();
        throw error;
      }
    })();
    this.#client = connecting;
    return connecting;
  }

  async end(): Promise<void> {
    this.#ended = true;
    const client = await this.#client?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }
}

/** The claims of one kind of work held by this process. */
export class Claims {
  readonly #key: number;
  readonly #connection: Reconnecting;
  /** The IDs this process holds, or is asking for. */
  readonly #mine = new Set<string>();
  #sweep: ReturnType<typeof setInterval> | undefined;
  #sweeping = false;

  /** `key` is the locks' first key; `makeClient` makes the connection that holds them (lazily, and again when lost). */
  constructor(makeClient: () => Client, key: number) {
    this.#key = key;
    // A new connection takes the locks this process held on the one it lost again.
    this.#connection = new Reconnecting(makeClient, async (client) => {
      if (this.#mine.size === 0) return;
      await client.query('SELECT pg_try_advisory_lock($1, hashtext(id)) FROM unnest($2::text[]) AS claimed(id)', [
        key,
        [...this.#mine],
      ]);
    });
  }

  /** Claims on the database at `url`, their connection named `name` (it connects on first use). */
  static async open(url: string, key: number, name: string): Promise<Claims> {
    const { default: pg } = await import('pg');
    return new Claims(() => {
      const client = new pg.Client({ connectionString: url, application_name: name });
      client.on('error', () => undefined);
      return client;
    }, key);
  }

  /**
   * Says when the connection holding the claims is lost (PostgreSQL restarted, the network cut):
   * their locks are gone, and another process may take them at once, so `listener` gets the IDs
   * held and this process holds none of them any more (their work is to stop; a sweep takes them
   * again). Without a listener the claims are taken again on the next connection, as they can.
   */
  whenLost(listener: (ids: string[]) => void): void {
    this.#connection.onLost = () => {
      const ids = [...this.#mine];
      this.#mine.clear();
      listener(ids);
    };
  }

  /** Whether this process holds the claim of `id`, or is asking for it. */
  has(id: string): boolean {
    return this.#mine.has(id);
  }

  /** Takes the claim of `id`, never waiting: false when another process holds it (or this one does already). */
  async take(id: string): Promise<boolean> {
    return (await this.takeFree([id])).length === 1;
  }

  /** Takes, in one query, the claims among `ids` that no process holds; the IDs it took. */
  async takeFree(ids: string[]): Promise<string[]> {
    const asked = [...new Set(ids)].filter((id) => !this.#mine.has(id));
    if (asked.length === 0) return [];
    for (const id of asked) this.#mine.add(id);
    let taken: string[] = [];
    try {
      const rows = await this.#connection.query<{ id: string }>(
        'SELECT id FROM unnest($2::text[]) AS asked(id) WHERE pg_try_advisory_lock($1, hashtext(id))',
        [this.#key, asked],
      );
      taken = rows.map((row) => row.id);
      // Held now, even if the connection they were asked on was lost meanwhile (asked again on a new one).
      for (const id of taken) this.#mine.add(id);
      return taken;
    } finally {
      const got = new Set(taken);
      for (const id of asked) if (!got.has(id)) this.#mine.delete(id);
    }
  }

  /** Lets go of the claim of `id` (once its work is over, or to hand it on). */
  async release(id: string): Promise<void> {
    if (!this.#mine.has(id)) return;
    try {
      await this.#connection.query('SELECT pg_advisory_unlock($1, hashtext($2))', [this.#key, id]);
    } catch {
      // The connection is gone, and the lock with it.
    } finally {
      this.#mine.delete(id);
    }
  }

  /** A statement on the claims' connection (the sweep's own reads). */
  query<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
    return this.#connection.query<R>(sql, values);
  }

  /**
   * Every {@link SWEEP_MS}: `list` says which IDs may have lost their process, their free claims
   * are taken in one query, and `found` gets the IDs taken (this process holds them then). A sweep
   * never starts while the one before is under way; its failures wait for the next.
   */
  sweep(list: () => Promise<string[]> | string[], found: (ids: string[]) => Promise<void> | void): void {
    clearInterval(this.#sweep);
    this.#sweep = setInterval(() => {
      if (this.#sweeping) return;
      this.#sweeping = true;
      void (async () => {
        const ids = (await list()).filter((id) => !this.#mine.has(id));
        if (ids.length === 0) return;
        const taken = await this.takeFree(ids);
        if (taken.length > 0) await found(taken);
      })()
        .catch(() => undefined)
        .finally(() => (this.#sweeping = false));
    }, SWEEP_MS);
    this.#sweep.unref();
  }

  /** Stops the sweep. */
  stopSweep(): void {
    clearInterval(this.#sweep);
    this.#sweep = undefined;
  }

  /** Stops the sweep and ends the connection: every claim still held is free for another process. */
  async end(): Promise<void> {
    this.stopSweep();
    await this.#connection.end();
    this.#mine.clear();
  }
}

/**
 * Locks waited for, one holder at a time across the processes: a scene that one render encodes is
 * waited for by the others that want it, which then take it from the shared cache instead of
 * encoding it again. Each lock is held on a pooled connection of its own (a waiting lock blocks its
 * connection), released by the same one, and dropped by PostgreSQL if its process dies.
 */
export class WaitedLocks {
  readonly #key: number;
  readonly #pool: import('pg').Pool;
  #warned = false;

  private constructor(pool: import('pg').Pool, key: number) {
    this.#pool = pool;
    this.#key = key;
  }

  /** `key` is the locks' first key; at most `connections` are held or waited for at once (the others queue here). */
  static async open(url: string, key: number, name: string, connections = 8): Promise<WaitedLocks> {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: url, application_name: name, max: connections });
    // A connection lost while idle says so here; the pool makes another for the next lock.
    pool.on('error', () => undefined);
    return new WaitedLocks(pool, key);
  }

  /**
   * Resolves once this process holds the lock of `id`, with its release. The database unreachable:
   * resolves at once, unlocked (the work is then perhaps done twice, never lost).
   */
  async hold(id: string): Promise<() => void> {
    let client: import('pg').PoolClient | undefined;
    try {
      client = await this.#pool.connect();
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [this.#key, id]);
    } catch (error) {
      client?.release(true);
      if (!this.#warned) {
        this.#warned = true;
        console.warn(
          `video-plugin-service: a lock could not be taken (${(error as Error).message}); going on without.`,
        );
      }
      return () => {};
    }
    const held = client;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void held
        .query('SELECT pg_advisory_unlock($1, hashtext($2))', [this.#key, id])
        .then(() => held.release())
        .catch(() => held.release(true));
    };
  }

  async end(): Promise<void> {
    await this.#pool.end().catch(() => undefined);
  }
}
