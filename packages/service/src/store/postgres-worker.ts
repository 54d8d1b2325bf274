/**
 * The PostgreSQL connection of postgres.ts, in a worker thread: the store's calls are synchronous
 * (a write is committed when its call returns), so the main thread posts each batch of statements
 * here and waits on a shared signal until the answer is posted back.
 *
 * A batch of more than one statement is one transaction. A connection that breaks is dropped; the
 * next batch connects again and first runs the batch of `setup` (the claim on the database), so a
 * server that went away and came back is used again without a restart.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import pg from 'pg';

interface Statement {
  sql: string;
  values?: unknown[];
}

interface Request {
  id: number;
  /** Statements to run: one alone, or several in one transaction. */
  batch?: Statement[];
  /** Begins a transaction left open, and runs these statements in it (the write lock, the catch-up). */
  open?: Statement[];
  /** Runs these statements in the open transaction, then commits it. */
  commit?: Statement[];
  /** Rolls the open transaction back. */
  rollback?: true;
  /** Statements each new connection runs first (the claim); `{ ok: true }` must be their last row. */
  setup?: Statement[];
  close?: true;
}

const { port, signal, url, applicationName, connectTimeoutMs, statementTimeoutMs } = workerData as {
  port: MessagePort;
  signal: Int32Array;
  url: string;
  applicationName: string;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
};

let client: pg.Client | undefined;
let setup: Statement[] = [];

/** Errors that mean the connection is gone (not a statement the server refused). */
function broken(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return !('severity' in (error as object)) || code.startsWith('08') || code.startsWith('57P');
}

async function connection(): Promise<pg.Client> {
  if (client) return client;
  const next = new pg.Client({
    connectionString: url,
    application_name: applicationName,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    options: '-c search_path=video_plugin',
  });
  next.on('error', () => {
    if (client === next) client = undefined;
  });
  try {
    await next.connect();
    for (const statement of setup) {
      const { rows } = await next.query(statement.sql, statement.values);
      if (rows[0] && 'ok' in rows[0] && rows[0].ok !== true) {
        throw Object.assign(new Error('the database is now used by another video-plugin-service process'), {
          code: 'VP_CLAIMED',
        });
      }
    }
  } catch (error) {
    void next.end().catch(() => undefined);
    throw error;
  }
  client = next;
  return next;
}

/** The connection of the transaction left open by `open`, until `commit` or `rollback`. */
let open: pg.Client | undefined;

async function each(db: pg.Client, statements: Statement[]): Promise<unknown[][]> {
  const results: unknown[][] = [];
  for (const statement of statements) results.push((await db.query(statement.sql, statement.values)).rows);
  return results;
}

/** Drops a connection that broke (the next request connects again). */
function dropIfBroken(db: pg.Client, error: unknown): void {
  if (!broken(error)) return;
  if (client === db) client = undefined;
  void db.end().catch(() => undefined);
}

async function begin(statements: Statement[]): Promise<unknown[][]> {
  const db = await connection();
  try {
    await db.query('BEGIN');
    open = db;
    return await each(db, statements);
  } catch (error) {
    open = undefined;
    await db.query('ROLLBACK').catch(() => undefined);
    dropIfBroken(db, error);
    throw error;
  }
}

async function finish(statements: Statement[] | undefined): Promise<unknown[][]> {
  const db = open;
  open = undefined;
  if (!db) throw Object.assign(new Error('no transaction is open'), { code: 'VP_NO_TRANSACTION' });
  try {
    if (!statements) {
      await db.query('ROLLBACK');
      return [];
    }
    const results = await each(db, statements);
    await db.query('COMMIT');
    return results;
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    dropIfBroken(db, error);
    throw error;
  }
}

async function run(batch: Statement[]): Promise<unknown[][]> {
  const db = await connection();
  try {
    if (batch.length === 1) return [(await db.query(batch[0]!.sql, batch[0]!.values)).rows];
    await db.query('BEGIN');
    const results: unknown[][] = [];
    try {
      for (const statement of batch) results.push((await db.query(statement.sql, statement.values)).rows);
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return results;
  } catch (error) {
    if (broken(error)) {
      if (client === db) client = undefined;
      void db.end().catch(() => undefined);
    }
    throw error;
  }
}

function answer(message: object): void {
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

// One request at a time, in order: the main thread waits for each answer before it sends the next.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: Request) => {
  queue = queue.then(async () => {
    try {
      if (request.close) {
        await client?.end().catch(() => undefined);
        client = undefined;
        answer({ id: request.id, results: [] });
        return;
      }
      if (request.setup) setup = request.setup;
      if (request.open) answer({ id: request.id, results: await begin(request.open) });
      else if (request.commit) answer({ id: request.id, results: await finish(request.commit) });
      else if (request.rollback) answer({ id: request.id, results: await finish(undefined) });
      else answer({ id: request.id, results: request.batch ? await run(request.batch) : (await connection(), []) });
    } catch (error) {
      const { message, code } = error as { message: string; code?: string };
      answer({ id: request.id, error: { message, code, broken: broken(error) } });
    }
  });
});
parentPort?.postMessage('ready');
