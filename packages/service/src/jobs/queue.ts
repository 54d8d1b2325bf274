/**
 * The job queue of services sharing a PostgreSQL database (`--database`): pg-boss, in its own schema
 * (`video_plugin_jobs`). A job is a reference to its record (`{ job, id }`); it is inserted in the
 * same transaction as the record (pg-boss's own SQL, taken from `send` with its `db` option and run
 * by the store), so a record acknowledged has its job, and a failed transaction has neither. Every
 * process works the queue (`SKIP LOCKED` claims: one process per job) and runs what it claims with
 * the same code as a job of its own (jobs.ts).
 *
 * pg-boss 10 (the last that runs on Node 20) has no heartbeat: a job whose process died stays
 * active until it expires. So the process that runs a job holds a PostgreSQL advisory lock named by
 * the job for as long as it runs, on a connection of its own; PostgreSQL drops the lock the moment
 * that process's connection ends (a kill, a crash). Each process looks every second for active jobs
 * whose lock is free and fails them to pg-boss, which gives them to the next process that asks
 * (the job goes on from its record's status, as after a restart).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import type PgBoss from 'pg-boss';
import type { Client } from 'pg';

/** What a queued job runs: a topic search, a generation, a final render, or a preview rendered again. */
export interface JobRef {
  job: 'topicSearch' | 'generation' | 'render' | 'preview';
  /** The topic's ID, the generation's requestId, or the video's ID. */
  id: string;
}

/** One statement of pg-boss's, to run in the store's transaction. */
export interface QueuedInsert {
  sql: string;
  values: unknown[];
}

const QUEUE = 'video-plugin-jobs';
const SCHEMA = 'video_plugin_jobs';
/** The first key of the jobs' advisory locks ("VPJ1"); the second is the job ID's hash. */
const JOB_LOCKS = 0x56504a31;
/** How often a process looks for jobs whose process is gone, and how long a claimed job may take to be locked. */
export const SWEEP_MS = 1000;
const CLAIM_GRACE_SECONDS = 3;

/**
 * A connection of its own that is made again when lost (the server restarted): `onConnect` runs on
 * each new one before it is used (the holder takes its running jobs' locks again).
 */
class Reconnecting {
  readonly #make: () => Client;
  readonly #onConnect: (client: Client) => Promise<void>;
  #client: Promise<Client> | undefined;
  #ended = false;

  constructor(make: () => Client, onConnect: (client: Client) => Promise<void> = async () => {}) {
    this.#make = make;
    this.#onConnect = onConnect;
  }

  async query<R extends object>(sql: string, values: unknown[]): Promise<R[]> {
    if (this.#ended) throw new Error('the job queue is closed');
    const client = await (this.#client ??= this.#connect());
    try {
      return (await client.query<R>(sql, values)).rows;
    } catch (error) {
      // A connection that broke while idle says so only here: once more, on a new one.
      if ('severity' in (error as object) && !(error as { code?: string }).code?.startsWith('57P')) throw error;
      this.#client = undefined;
      void client.end().catch(() => undefined);
      if (this.#ended) throw error;
      return (await (await (this.#client ??= this.#connect())).query<R>(sql, values)).rows;
    }
  }

  async #connect(): Promise<Client> {
    if (this.#ended) throw new Error('the job queue is closed');
    const client = this.#make();
    const lost = () => {
      if (this.#client === connecting) this.#client = undefined;
      void client.end().catch(() => undefined);
    };
    client.on('error', lost);
    client.on('end', lost);
    const connecting = (async () => {
      try {
        await client.connect();
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

/**
 * pg-boss 10 ends each job it ran with `complete()` or `fail()` without awaiting either: a connection
 * lost at that moment (the server restarting) rejects a promise nobody handles, which ends a Node
 * process. Each such promise gets a handler here, and callers that await it still see its rejection.
 * The job then stays active with its lock free, and the sweep hands it on (it goes on from its record).
 */
export function guardUnawaitedCompletions(): void {
  type Ending = (this: unknown, ...args: unknown[]) => Promise<unknown>;
  const manager = (createRequire(import.meta.url)('pg-boss/src/manager.js') as { prototype: Record<string, Ending> })
    .prototype;
  if ((manager as { guarded?: boolean }).guarded) return;
  (manager as { guarded?: boolean }).guarded = true;
  for (const name of ['complete', 'fail']) {
    const original = manager[name]!;
    const guarded = function (this: unknown, ...args: unknown[]) {
      const ending = original.apply(this, args);
      ending.catch(() => undefined);
      return ending;
    };
    // PgBoss exposes the manager's functions under their names (`boss.fail`): the name must stay.
    Object.defineProperty(guarded, 'name', { value: name });
    manager[name] = guarded;
  }
}

export class JobQueue {
  readonly #boss: PgBoss;
  /** Holds the advisory lock of every job this process runs. */
  readonly #holder: Reconnecting;
  /** Looks for the locks of dead processes' jobs (never this process's own: those are skipped). */
  readonly #sweeper: Reconnecting;
  readonly #running = new Set<string>();
  #sweep: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  #closed = false;

  private constructor(boss: PgBoss, makeClient: () => Client) {
    this.#boss = boss;
    // A new holder connection takes the locks of the jobs still running here again.
    this.#holder = new Reconnecting(makeClient, async (client) => {
      for (const id of this.#running)
        await client.query('SELECT pg_try_advisory_lock($1, hashtext($2))', [JOB_LOCKS, id]);
    });
    this.#sweeper = new Reconnecting(makeClient);
  }

  /** Starts pg-boss on the database (its schema made or migrated under its own lock) and the queue. */
  static async open(url: string): Promise<JobQueue> {
    const [{ default: Boss }, { default: pg }] = await Promise.all([import('pg-boss'), import('pg')]);
    guardUnawaitedCompletions();
    const boss = new Boss({
      connectionString: url,
      schema: SCHEMA,
      application_name: `video-plugin-service jobs pid ${process.pid} on ${hostname()}`,
      max: 4,
      supervise: true,
      maintenanceIntervalSeconds: 30,
    });
    boss.on('error', (error) => console.error('video-plugin-service: the job queue:', error.message));
    const client = () => new pg.Client({ connectionString: url, application_name: 'video-plugin-service job locks' });
    // One process at a time installs or migrates pg-boss's schema and makes the queue: two starting
    // together otherwise deadlock in pg-boss's own setup.
    const setup = client();
    await setup.connect();
    try {
      await setup.query('SELECT pg_advisory_lock($1, 0)', [JOB_LOCKS]);
      await boss.start();
      if (!(await boss.getQueue(QUEUE))) {
        await boss.createQueue(QUEUE, {
          name: QUEUE,
          policy: 'standard',
          retryLimit: 20,
          retryDelay: 1,
          retryBackoff: true,
          // Long enough for the longest render; a dead process's job is handed on by the sweep, not by this.
          expireInSeconds: 6 * 3600,
        });
      }
    } catch (error) {
      await boss.stop({ graceful: false, close: true }).catch(() => undefined);
      throw error;
    } finally {
      await setup.end().catch(() => undefined);
    }
    return new JobQueue(boss, () => {
      const made = client();
      made.on('error', () => undefined);
      return made;
    });
  }

  /**
   * pg-boss's insert of a job for `ref`, to run in the transaction of its record: `send` is called
   * with a `db` that keeps its statement instead of running it (it is called before `send` awaits
   * anything, so the statement is there when this returns).
   */
  insert(ref: JobRef): QueuedInsert {
    let kept: QueuedInsert | undefined;
    const db = {
      executeSql: (sql: string, values: unknown[]) => {
        kept = { sql, values };
        return Promise.resolve({ rows: [{ id: 'queued' }] });
      },
    };
    void this.#boss.send(QUEUE, ref as unknown as object, { id: randomUUID(), db }).catch(() => undefined);
    if (!kept) throw new Error('pg-boss did not hand over its insert statement');
    return kept;
  }

  /**
   * Works the queue: `run` is called for each job this process claims, `concurrency` at a time, and
   * the job is done when it resolves. Starts the sweep for jobs of dead processes.
   */
  async work(concurrency: number, run: (ref: JobRef) => Promise<void>): Promise<void> {
    const handler = async ([job]: PgBoss.Job<JobRef>[]) => {
      if (!job) return;
      // Claimed while the service closes: back to the queue at once, for another process.
      if (this.#stopped) throw new Error('the service is stopping');
      this.#running.add(job.id);
      try {
        // Never waited for: a lock held elsewhere means the job runs there (a claim handed on twice).
        const [lock] = await this.#holder.query<{ got: boolean }>(
          'SELECT pg_try_advisory_lock($1, hashtext($2)) AS got',
          [JOB_LOCKS, job.id],
        );
        if (!lock?.got) throw new Error('the job runs in another process');
        await run(job.data);
        // Stopped by the service's close, not done: pg-boss hands it to another process.
        if (this.#stopped) throw new Error('the service stopped while it ran');
      } finally {
        this.#running.delete(job.id);
        await this.#holder
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCKS, job.id])
          .catch(() => undefined);
      }
    };
    for (let index = 0; index < concurrency; index++) {
      await this.#boss.work<JobRef>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, handler);
    }
    this.#sweep = setInterval(() => void this.#handOn().catch(() => undefined), SWEEP_MS);
    this.#sweep.unref();
  }

  /** Fails to pg-boss (to be retried elsewhere) the active jobs whose process no longer holds their lock. */
  async #handOn(): Promise<void> {
    if (this.#stopped) return;
    const rows = await this.#sweeper.query<{ id: string }>(
      `SELECT id FROM ${SCHEMA}.job WHERE name = $1 AND state = 'active' AND started_on < now() - make_interval(secs => $2)`,
      [QUEUE, CLAIM_GRACE_SECONDS],
    );
    for (const { id } of rows) {
      if (this.#running.has(id)) continue;
      const got = await this.#sweeper.query<{ free: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS free',
        [JOB_LOCKS, id],
      );
      if (!got[0]?.free) continue;
      await this.#sweeper.query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCKS, id]);
      await this.#boss.fail(QUEUE, id, { reason: 'its process ended while it ran' });
      console.error(`video-plugin-service: took over job ${id}, whose process ended while it ran.`);
    }
  }

  /**
   * Says the service is closing, before its jobs are stopped: a job that ends from now on was
   * stopped, not done, and is failed to pg-boss, which gives it to another process.
   */
  stopping(): void {
    this.#stopped = true;
    clearInterval(this.#sweep);
  }

  /** Stops working the queue, once the jobs that ran here have settled (see {@link stopping}). */
  async close(): Promise<void> {
    this.stopping();
    if (this.#closed) return;
    this.#closed = true;
    await this.#boss.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
    await Promise.all([this.#holder.end(), this.#sweeper.end()]);
  }
}
