/**
 * The synchronous end of the PostgreSQL connection (postgres.ts): the connection itself lives in a
 * worker thread (postgres-worker.ts); each call posts its statements there and waits, on a shared
 * signal, for the answer — the same wait a synchronous SQLite write makes for its disk.
 */
import { once } from 'node:events';
import { hostname } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** A statement and its values ($1, $2…). */
export interface Statement {
  sql: string;
  values?: unknown[];
}

/** How long a connection may take, and a statement, in ms; a call waits for both at most, plus a margin. */
const CONNECT_TIMEOUT_MS = 3000;
const STATEMENT_TIMEOUT_MS = 10_000;

/** A failure of the database (unreachable, refused a statement): the store answers it with 503. */
export class PostgresError extends Error {
  override readonly name = 'PostgresError';
  readonly code: string | undefined;
  /** The connection broke (the server is down or unreachable), as opposed to a statement refused. */
  readonly broken: boolean;

  constructor(message: string, code: string | undefined, broken: boolean, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.broken = broken;
  }
}

/** The synchronous end of the worker's connection. */
export class Connection {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #signal: Int32Array;
  #next = 1;

  private constructor(worker: Worker, port: MessagePort, signal: Int32Array) {
    this.#worker = worker;
    this.#port = port;
    this.#signal = signal;
  }

  /** Starts the worker and resolves once it is ready to take statements (it connects at the first). */
  static async start(url: string): Promise<Connection> {
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(workerCode(), {
      eval: true,
      workerData: {
        port: port2,
        signal,
        url,
        applicationName: `video-plugin-service pid ${process.pid} on ${hostname()}`,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      },
      transferList: [port2],
    });
    // The worker says it is ready on its own channel, once its modules are loaded.
    await Promise.race([
      once(worker, 'message'),
      once(worker, 'error').then(([error]) => Promise.reject(error as Error)),
      once(worker, 'exit').then(([code]) =>
        Promise.reject(new Error(`its worker thread ended (${String(code)}) before it was ready`)),
      ),
    ]);
    worker.unref();
    return new Connection(worker, port1, signal);
  }

  /** Runs the statements (several: in one transaction) and returns each one's rows. */
  run(batch: Statement[]): Record<string, unknown>[][] {
    return this.request({ batch });
  }

  /** Posts a request to the worker (postgres-worker.ts) and waits for its answer: each statement's rows. */
  request(message: {
    batch?: Statement[];
    open?: Statement[];
    commit?: Statement[];
    rollback?: true;
  }): Record<string, unknown>[][] {
    const id = this.#next++;
    Atomics.store(this.#signal, 0, 0);
    this.#port.postMessage({ id, ...message });
    const deadline = Date.now() + CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 2000;
    for (;;) {
      // An answer to an earlier call that timed out may come first: it is skipped.
      for (let message = receiveMessageOnPort(this.#port); message; message = receiveMessageOnPort(this.#port)) {
        const answer = message.message as {
          id: number;
          results?: Record<string, unknown>[][];
          error?: { message: string; code?: string; broken: boolean };
        };
        if (answer.id !== id) continue;
        if (answer.error) {
          const { message, code, broken } = answer.error;
          // What a page may read says the database is unreachable; where it is stays in the log.
          if (!broken) throw new PostgresError(message, code, false);
          throw new PostgresError('the database cannot be reached', code, true, { cause: new Error(message) });
        }
        return answer.results ?? [];
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new PostgresError('the database did not answer in time', 'VP_TIMEOUT', true);
      Atomics.wait(this.#signal, 0, 0, left);
      Atomics.store(this.#signal, 0, 0);
    }
  }

  close(): void {
    try {
      this.#port.postMessage({ id: this.#next++, close: true });
      Atomics.wait(this.#signal, 0, 0, 2000);
    } finally {
      this.#port.close();
      void this.#worker.terminate();
    }
  }
}

/**
 * The worker's code: the compiled postgres-worker.js, or from the sources (the tests, through tsx)
 * postgres-worker.ts after registering tsx in the worker, which does not inherit the loader.
 */
function workerCode(): string {
  const here = import.meta.url;
  const fromSources = here.endsWith('.ts');
  const entry = new URL(fromSources ? './postgres-worker.ts' : './postgres-worker.js', here).href;
  // Named through a variable: the package never imports tsx (a development tool of the repository).
  const tsx = JSON.stringify('tsx/esm/api');
  return `(async () => {
    ${fromSources ? `(await import(${tsx})).register();` : ''}
    await import(${JSON.stringify(entry)});
  })()`;
}
