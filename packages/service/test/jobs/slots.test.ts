// Slots (jobs/slots.ts), the queue of the topic searches' fetches and of the renders: fair across
// partners and their accounts (issue 41), each account's tasks in order, never past a limit; and
// the count of each account's waiting jobs that the API caps (jobs/waiting.ts). No service.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Slots } from '../../src/jobs/slots.js';
import { WaitingJobs } from '../../src/jobs/waiting.js';

/** Tasks held until the test lets them end, with the order in which they started. */
class HeldTasks {
  readonly started: string[] = [];
  readonly #held = new Map<string, () => void>();

  constructor(readonly slots: Slots) {}

  /** Queues a task named `name` of `partnerID/accountID`. */
  add(partnerID: string, accountID: string, name = `${partnerID}/${accountID}`): Promise<void> {
    return this.slots.run({ partnerID, accountID }, async () => {
      this.started.push(name);
      await new Promise<void>((resolve) => this.#held.set(`${name}#${this.started.length}`, resolve));
    });
  }

  /** Ends the task that started `index`-th (0-based) and waits until the queue has moved on. */
  async end(index: number): Promise<void> {
    const key = `${this.started[index]}#${index + 1}`;
    const release = this.#held.get(key);
    assert.ok(release, `no task ${key} is running`);
    this.#held.delete(key);
    release();
    await settle();
  }

  /** Ends every task, in the order they started, until none is left. */
  async drain(): Promise<void> {
    for (let index = 0; index < this.started.length; index++) {
      if (this.#held.has(`${this.started[index]}#${index + 1}`)) await this.end(index);
    }
  }
}

/** Lets every pending promise reaction run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Slots: whose task goes next', () => {
  test("the review's case: an account with nothing running gets the next free slot, ahead of another's long queue", async () => {
    const tasks = new HeldTasks(new Slots({ perAccount: 2, total: 2 }));
    // One account fills both slots and queues 30 more (first come first served put these first).
    const queued = Array.from({ length: 32 }, () => tasks.add('partner', 'busy'));
    await settle();
    const other = tasks.add('partner', 'other');
    await settle();
    assert.deepEqual(tasks.started, ['partner/busy', 'partner/busy']);
    await tasks.end(0);
    assert.deepEqual(tasks.started.slice(2), ['partner/other'], 'the first slot that frees is the other account’s');
    await tasks.drain();
    await Promise.all([...queued, other]);
    assert.equal(tasks.started.length, 33);
  });

  test('partners take turns, and a partner’s accounts take turns within its share', async () => {
    const tasks = new HeldTasks(new Slots({ perAccount: 1, total: 1 }));
    const all = [
      ...Array.from({ length: 3 }, () => tasks.add('p1', 'a1')),
      ...Array.from({ length: 3 }, () => tasks.add('p1', 'a2')),
      ...Array.from({ length: 3 }, () => tasks.add('p2', 'b1')),
    ];
    await settle();
    await tasks.drain();
    await Promise.all(all);
    // p2 (one account) gets every other slot while it waits, as p1 (two accounts) does: a partner's
    // share does not grow with its accounts. Within p1, a1 and a2 alternate.
    assert.deepEqual(tasks.started, ['p1/a1', 'p2/b1', 'p1/a2', 'p2/b1', 'p1/a1', 'p2/b1', 'p1/a2', 'p1/a1', 'p1/a2']);
  });

  test('a new partner (a sandbox) is served before partners that already run tasks', async () => {
    const tasks = new HeldTasks(new Slots({ perAccount: 4, total: 4 }));
    const busy = Array.from({ length: 10 }, (_, index) => tasks.add('main', `account-${index % 3}`));
    await settle();
    const sandbox = tasks.add('sandbox_1', 'tester');
    await settle();
    await tasks.end(0);
    assert.equal(tasks.started[4], 'sandbox_1/tester');
    await tasks.drain();
    await Promise.all([...busy, sandbox]);
  });

  test('one account’s tasks start in the order they came', async () => {
    const slots = new Slots({ perAccount: 2, total: 2 });
    const log: string[] = [];
    const job = (name: string) =>
      slots.run({ partnerID: 'p', accountID: 'a' }, async () => {
        log.push(`start ${name}`);
        await settle();
        log.push(`end ${name}`);
      });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map(job));
    assert.deepEqual(
      log.filter((line) => line.startsWith('start')),
      ['start a', 'start b', 'start c', 'start d', 'start e'],
    );
    assert.deepEqual(slots.counts, { running: 0, waiting: 0 });
  });

  test('an account never runs more than perAccount, while another account may use the free slots', async () => {
    const tasks = new HeldTasks(new Slots({ perAccount: 1, total: 3 }));
    const all = [tasks.add('p', 'a'), tasks.add('p', 'a'), tasks.add('p', 'b'), tasks.add('p', 'b')];
    await settle();
    assert.deepEqual(tasks.started, ['p/a', 'p/b']);
    assert.deepEqual(tasks.slots.counts, { running: 2, waiting: 2 });
    assert.equal(tasks.slots.wouldWait({ partnerID: 'p', accountID: 'a' }), true);
    assert.equal(tasks.slots.wouldWait({ partnerID: 'p', accountID: 'c' }), false);
    await tasks.drain();
    await Promise.all(all);
    assert.deepEqual(tasks.slots.counts, { running: 0, waiting: 0 });
  });
});

describe('Slots: limits', () => {
  test('a woken waiter respects the total: a newcomer arriving as a slot frees cannot slip past it', async () => {
    const slots = new Slots({ perAccount: 1, total: 1 });
    let running = 0;
    let peak = 0;
    const job = (accountID: string) =>
      slots.run({ partnerID: 'p', accountID }, async () => {
        peak = Math.max(peak, ++running);
        await settle();
        running--;
      });
    const first = job('a');
    const waiting = job('b');
    // Arrives in the same turn as the first task's end, before the waiter runs.
    const late = first.then(() => job('c'));
    await Promise.all([first, waiting, late]);
    assert.equal(peak, 1);
  });

  test('a task that takes a second slot while holding one deadlocks a one-slot queue: renders take their slot once', async () => {
    // The shape of the bug of issue 19: at total 1 the inner task waits for the slot its caller
    // holds. Jobs takes a render slot in one place (#renderFiles) only.
    const slots = new Slots({ perAccount: 1, total: 1 });
    const owner = { partnerID: 'p', accountID: 'a' };
    let innerRan = false;
    const outer = slots.run(owner, () => slots.run(owner, async () => void (innerRan = true)));
    const settled = await Promise.race([outer.then(() => 'done'), settle().then(() => 'stuck')]);
    assert.equal(settled, 'stuck');
    assert.equal(innerRan, false);
    assert.deepEqual(slots.counts, { running: 1, waiting: 1 });
  });
});

describe('Slots: a waiting task whose signal aborts', () => {
  test('leaves the line at once with the reason, takes no slot, and the others are served as before', async () => {
    const slots = new Slots({ perAccount: 1, total: 1 });
    const tasks = new HeldTasks(slots);
    const first = tasks.add('p', 'a');
    await settle();
    const reset = new AbortController();
    let ran = false;
    const waiting = slots.run(
      { partnerID: 'sandbox_x', accountID: 'b' },
      async () => {
        ran = true;
      },
      reset.signal,
    );
    const after = tasks.add('q', 'c');
    await settle();
    assert.deepEqual(slots.counts, { running: 1, waiting: 2 });
    reset.abort(new Error('the sandbox was reset'));
    await assert.rejects(waiting, { message: 'the sandbox was reset' });
    assert.deepEqual(slots.counts, { running: 1, waiting: 1 });
    await tasks.end(0);
    assert.deepEqual(tasks.started, ['p/a', 'q/c']);
    assert.equal(ran, false);
    await tasks.drain();
    await Promise.all([first, after]);
    assert.deepEqual(slots.counts, { running: 0, waiting: 0 });
  });

  test('an already aborted signal is refused before the task queues', async () => {
    const slots = new Slots({ perAccount: 1, total: 1 });
    const gone = AbortSignal.abort(new Error('closed'));
    await assert.rejects(
      slots.run({ partnerID: 'p', accountID: 'a' }, async () => {}, gone),
      { message: 'closed' },
    );
    assert.deepEqual(slots.counts, { running: 0, waiting: 0 });
  });
});

describe('WaitingJobs', () => {
  test('counts each account’s waiting jobs; leaving twice counts once', () => {
    const waiting = new WaitingJobs();
    const a = { partnerID: 'p', accountID: 'a' };
    const first = waiting.enter(a);
    const second = waiting.enter(a);
    waiting.enter({ partnerID: 'q', accountID: 'a' });
    assert.equal(waiting.of(a), 2);
    first();
    first();
    assert.equal(waiting.of(a), 1);
    second();
    assert.equal(waiting.of(a), 0);
    assert.equal(waiting.of({ partnerID: 'q', accountID: 'a' }), 1);
  });
});
