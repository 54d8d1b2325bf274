// pg-boss 10 ends a job it ran with `complete()` or `fail()` and never awaits either: a connection
// lost at that moment (PostgreSQL restarting) would reject with no handler and end the service's
// process. jobs/queue.ts gives each such promise a handler; a caller that awaits one still sees it fail.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { guardUnawaitedCompletions } from '../../src/jobs/queue.js';

type Ending = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const manager = (createRequire(import.meta.url)('pg-boss/src/manager.js') as { prototype: Record<string, Ending> })
  .prototype;

/** What a Manager's `complete` and `fail` use: a database whose connection was just lost. */
const lostConnection = {
  db: { executeSql: () => Promise.reject(Object.assign(new Error('terminating connection'), { code: '57P01' })) },
  mapCompletionIdArg: (id: string) => [id],
  mapCompletionDataArg: () => null,
  mapCommandResponse: () => ({}),
};

test("a job's end that pg-boss does not await, on a lost connection, is no unhandled rejection", async () => {
  guardUnawaitedCompletions();
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    for (const name of ['complete', 'fail']) {
      // As pg-boss's worker calls them: not awaited.
      void manager[name]!.call(lostConnection, 'video-plugin-jobs', 'job-1');
      // Awaited, the failure is still seen.
      await assert.rejects(manager[name]!.call(lostConnection, 'video-plugin-jobs', 'job-2'), /terminating connection/);
    }
    // Unhandled rejections are reported after the microtasks of a turn: two turns later, none was.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
    // PgBoss still offers them under their names (it copies the manager's functions by name).
    const { default: PgBoss } = await import('pg-boss');
    const boss = new PgBoss({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }) as unknown as Record<
      string,
      unknown
    >;
    assert.equal(typeof boss.complete, 'function');
    assert.equal(typeof boss.fail, 'function');
  } finally {
    process.off('unhandledRejection', listener);
  }
});
