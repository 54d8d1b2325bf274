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
import { Claims } from './claims.js';
import type { ForcedOutcome } from './test-controls.js';

export { SWEEP_MS } from './claims.js';

/** What a queued job runs: a topic search, a generation, a final render, or a preview rendered again. */
export interface JobRef {
  job: 'topicSearch' | 'generation' | 'render' | 'preview';
  /** The topic's ID, the generation's requestId, or the video's ID. */
  id: string;
  /** The outcome a test forced on it (test-controls.ts), taken when it was queued: it runs so wherever it is claimed. */
  forced?: ForcedOutcome;
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
/** How long a claimed job may take to be locked. */
const CLAIM_GRACE_SECONDS = 3;

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
  /** The advisory lock of every job this process runs (claims.ts), and the sweep for those of dead processes. */
  readonly #claims: Claims;
  #stopped = false;
  #closed = false;

  /** How many jobs this process runs at once (one pg-boss worker each). */
  readonly #concurrency: number;

  private constructor(boss: PgBoss, claims: Claims, concurrency: number) {
    this.#boss = boss;
    this.#claims = claims;
    this.#concurrency = concurrency;
  }

  /**
   * Starts pg-boss on the database (its schema made or migrated under its own lock) and the queue,
   * for a process that runs `concurrency` jobs at once.
   */
  static async open(url: string, concurrency: number): Promise<JobQueue> {
    const [{ default: Boss }, { default: pg }] = await Promise.all([import('pg-boss'), import('pg')]);
    guardUnawaitedCompletions();
    const boss = new Boss({
      connectionString: url,
      schema: SCHEMA,
      application_name: `video-plugin-service jobs pid ${process.pid} on ${hostname()}`,
      // A connection for each worker's fetch and end, and two for pg-boss's own upkeep: with fewer,
      // workers wait for a connection, and pg-boss's stop never ends (its pool's end does not
      // answer those still waiting, so their workers never stop).
      max: concurrency + 2,
      supervise: true,
      maintenanceIntervalSeconds: 30,
    });
    boss.on('error', (error) => console.error('video-plugin-service: the job queue:', error.message));
    const client = () => {
      const made = new pg.Client({ connectionString: url, application_name: 'video-plugin-service job locks' });
      // A connection lost while idle says so here too; its next query fails and connects again (claims.ts).
      made.on('error', () => undefined);
      return made;
    };
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
    return new JobQueue(boss, new Claims(client, JOB_LOCKS), concurrency);
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
  async work(run: (ref: JobRef) => Promise<void>): Promise<void> {
    const handler = async ([job]: PgBoss.Job<JobRef>[]) => {
      if (!job) return;
      // Claimed while the service closes: back to the queue at once, for another process.
      if (this.#stopped) throw new Error('the service is stopping');
      // Never waited for: a lock held elsewhere means the job runs there (a claim handed on twice).
      if (!(await this.#claims.take(job.id))) throw new Error('the job runs in another process');
      try {
        // A forced outcome is spent by the run that begins: a run after this one's process ended
        // runs as usual, as a job resumed after a restart does (and a released stall stays released).
        if (job.data.forced) {
          await this.#claims
            .query(`UPDATE ${SCHEMA}.job SET data = data - 'forced' WHERE name = $1 AND id = $2`, [QUEUE, job.id])
            .catch(() => undefined);
        }
        await run(job.data);
        // Stopped by the service's close, not done: pg-boss hands it to another process.
        if (this.#stopped) throw new Error('the service stopped while it ran');
      } finally {
        await this.#claims.release(job.id);
      }
    };
    for (let index = 0; index < this.#concurrency; index++) {
      await this.#boss.work<JobRef>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, handler);
    }
    // Fails to pg-boss (to be retried elsewhere) the active jobs whose process no longer holds their lock.
    this.#claims.sweep(
      async () =>
        this.#stopped
          ? []
          : (
              await this.#claims.query<{ id: string }>(
                `SELECT id FROM ${SCHEMA}.job WHERE name = $1 AND state = 'active' AND started_on < now() - make_interval(secs => $2)`,
                [QUEUE, CLAIM_GRACE_SECONDS],
              )
            ).map((row) => row.id),
      async (ids) => {
        for (const id of ids) {
          // Free again before pg-boss hands it on, so that the next process's claim holds.
          await this.#claims.release(id);
          await this.#boss.fail(QUEUE, id, { reason: 'its process ended while it ran' });
          console.error(`video-plugin-service: took over job ${id}, whose process ended while it ran.`);
        }
      },
    );
  }

  /**
   * Says the service is closing, before its jobs are stopped: a job that ends from now on was
   * stopped, not done, and is failed to pg-boss, which gives it to another process.
   */
  stopping(): void {
    this.#stopped = true;
    this.#claims.stopSweep();
  }

  /** Stops working the queue, once the jobs that ran here have settled (see {@link stopping}). */
  async close(): Promise<void> {
    this.stopping();
    if (this.#closed) return;
    this.#closed = true;
    await this.#boss.stop({ graceful: false, wait: true, close: true }).catch(() => undefined);
    await this.#claims.end();
  }
}
