// The event log's cursors (`GET /api/partner/events`) are sealed for one partner: they count
// nothing of the other partners' events, another partner's is refused naming `after`, and the plain
// cursors of a data file written before they were sealed keep working for the partner who holds them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { CursorSeal } from '../../src/cursors.js';
import { MIGRATIONS } from '../../src/store/schema.js';
import { startService } from '../../src/server.js';
import {
  OTHER,
  OTHER_SECRET,
  PARTNER,
  SECRET,
  WEBHOOK_SECRET,
  api,
  backEnd,
  createAccount,
  startTestService,
} from '../support/helpers.js';
import type { RunningService } from '../../src/server.js';

const OTHER_WEBHOOK_SECRET = 'other-partner-webhook-secret-0123456789abcdef';
const PARTNERS = [
  { id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET] },
  { id: OTHER, secret: OTHER_SECRET, webhookSecrets: [OTHER_WEBHOOK_SECRET] },
];
const WEBHOOK_SECRETS: Record<string, string> = { [PARTNER]: WEBHOOK_SECRET, [OTHER]: OTHER_WEBHOOK_SECRET };

const dir = mkdtempSync(join(tmpdir(), 'vp-event-cursors-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** One page of `partnerID`'s event log from `after` (left out when undefined). */
async function page(service: RunningService, partnerID: string, after?: string, limit = 100) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (after !== undefined) query.set('after', after);
  return api(service, 'GET', `/api/partner/events?${query}`, {
    headers: await backEnd(partnerID, WEBHOOK_SECRETS[partnerID]),
  });
}

/** The cursor after every event of the partner's log. */
const tail = async (service: RunningService, partnerID: string): Promise<string> =>
  (await page(service, partnerID)).body.cursor;

/** The bits in which two sealed cursors differ. */
function bitsApart(a: string, b: string): number {
  const [x, y] = [a, b].map((cursor) => Buffer.from(cursor, 'base64url'));
  let bits = 0;
  for (let i = 0; i < 16; i++) for (let byte = x![i]! ^ y![i]!; byte; byte >>= 1) bits += byte & 1;
  return bits;
}

const SEALED = /^[A-Za-z0-9_-]{22}$/;

describe('CursorSeal', () => {
  const seal = new CursorSeal(Buffer.alloc(32, 7));

  test('opens what it sealed for the same reader, always to the same cursor; another reader, key or made-up cursor is refused', () => {
    const cursor = seal.seal('alpha', 41);
    assert.match(cursor, SEALED);
    assert.equal(seal.seal('alpha', 41), cursor);
    assert.deepEqual(seal.open(cursor, ['alpha']), { seq: 41 });
    assert.deepEqual(seal.open(cursor, ['beta', 'alpha']), { seq: 41 });
    assert.deepEqual(seal.open(cursor, 'any'), { seq: 41 });
    assert.deepEqual(seal.open(cursor, ['beta']), { problem: 'foreign' });
    assert.deepEqual(new CursorSeal(Buffer.alloc(32, 8)).open(cursor, ['alpha']), { problem: 'foreign' });
    assert.deepEqual(seal.open('A'.repeat(22), ['alpha']), { problem: 'foreign' });
    for (const text of ['', '41', 'A'.repeat(21), 'A'.repeat(23), `${'A'.repeat(21)}=`]) {
      assert.deepEqual(seal.open(text, ['alpha']), { problem: 'malformed' }, text);
    }
    assert.throws(() => new CursorSeal(Buffer.alloc(16)), /32 bytes/);
  });

  test('neighbouring positions, and one position for two readers, give unrelated cursors', () => {
    for (let seq = 0; seq < 50; seq++) {
      assert.ok(bitsApart(seal.seal('alpha', seq), seal.seal('alpha', seq + 1)) >= 30, `seq ${seq}`);
      assert.ok(bitsApart(seal.seal('alpha', seq), seal.seal('beta', seq)) >= 30, `seq ${seq}`);
    }
  });
});

describe('the event log cursors', () => {
  test("another partner's cursor is refused: 400 invalid_parameter naming after; its own is served", async () => {
    const service = await startTestService({ partners: PARTNERS });
    await createAccount(service, { externalID: 'a1' });
    await createAccount(service, { externalID: 'b1' }, OTHER, OTHER_SECRET);
    const mine = await tail(service, PARTNER);
    const theirs = await tail(service, OTHER);
    for (const [partnerID, cursor] of [
      [OTHER, mine],
      [PARTNER, theirs],
      [PARTNER, 'A'.repeat(22)],
    ] as const) {
      const refused = await page(service, partnerID, cursor);
      assert.equal(refused.status, 400, `${partnerID} ${cursor}`);
      assert.equal(refused.body.error.code, 'invalid_parameter');
      assert.equal(refused.body.error.data.field, 'after');
      assert.match(
        refused.body.error.message,
        new RegExp(`"after" is not a cursor of partner ${partnerID}'s event log`),
      );
    }
    assert.deepEqual((await page(service, PARTNER, mine)).body, { events: [], cursor: mine, hasMore: false });
  });

  test("two partners' consecutive cursors tell nothing of each other: sealed, unrelated, whatever the other did", async () => {
    const service = await startTestService({ partners: PARTNERS });
    await createAccount(service, { externalID: 'quiet-1' });
    const first = await tail(service, PARTNER);
    // The other partner makes 6 events between two of this partner's.
    for (let i = 0; i < 6; i++) await createAccount(service, { externalID: `busy-${i}` }, OTHER, OTHER_SECRET);
    await createAccount(service, { externalID: 'quiet-2' });
    const second = await tail(service, PARTNER);
    for (const cursor of [first, second]) assert.match(cursor, SEALED);
    // As plain sequence numbers these were 1 and 8; sealed, they differ in about half their bits.
    assert.ok(bitsApart(first, second) >= 30, `${first} ${second}`);
    const next = await page(service, PARTNER, first);
    assert.deepEqual(
      next.body.events.map((event: { externalID: string }) => event.externalID),
      ['quiet-2'],
    );
    assert.equal(next.body.cursor, second);
  });

  test('a plain cursor on a service whose log never gave one reads from the start, telling nothing', async () => {
    const service = await startTestService({ partners: PARTNERS });
    await createAccount(service, { externalID: 'b1' }, OTHER, OTHER_SECRET);
    await createAccount(service, { externalID: 'a1' });
    for (const plain of ['0', '1', '2', '999999999999999']) {
      const { body } = await page(service, PARTNER, plain);
      assert.deepEqual(
        body.events.map((event: { externalID: string }) => event.externalID),
        ['a1'],
        plain,
      );
      assert.match(body.cursor, SEALED);
    }
  });

  test('a data file of the old format (plain cursors) still serves its old cursors after the upgrade, to each partner', async () => {
    // A data file as the service before sealed cursors wrote it: its first three migrations, and an
    // event log whose cursors were the service-wide sequence numbers.
    const dataFile = join(dir, 'plain-cursors.db');
    const old = new Database(dataFile);
    for (const migration of MIGRATIONS.slice(0, 3)) migration.up(old);
    old.pragma('user_version = 3');
    const now = Date.now();
    const event = (seq: number, partnerID: string) => {
      const createdAt = new Date(now - 60_000 + seq * 1000).toISOString();
      const record = {
        type: 'account.created',
        id: `evt_old${seq}`,
        createdAt,
        accountID: `acct_old${seq}`,
        externalID: `${partnerID}-${seq}`,
        data: { via: 'token', account: { accountID: `acct_old${seq}`, externalID: `${partnerID}-${seq}` } },
      };
      old
        .prepare('INSERT INTO events (seq, id, partner_id, created_at, event) VALUES (?, ?, ?, ?, ?)')
        .run(seq, record.id, partnerID, createdAt, JSON.stringify(record));
    };
    // PARTNER's events are 1, 2 and 9; OTHER's 3 to 8: PARTNER's old cursor after its first page of
    // two was "2", OTHER's after its first three "5".
    for (const seq of [1, 2]) event(seq, PARTNER);
    for (const seq of [3, 4, 5, 6, 7, 8]) event(seq, OTHER);
    event(9, PARTNER);
    old.close();

    const service = await startService({ port: 0, media: 'placeholder', dataFile, partners: PARTNERS });
    const ids = (body: { events: { externalID: string }[] }) => body.events.map((e) => e.externalID);
    let kept: string;
    try {
      const fromTwo = (await page(service, PARTNER, '2')).body;
      assert.deepEqual(ids(fromTwo), [`${PARTNER}-9`]);
      assert.match(fromTwo.cursor, SEALED);
      assert.deepEqual(ids((await page(service, OTHER, '5')).body), [`${OTHER}-6`, `${OTHER}-7`, `${OTHER}-8`]);
      assert.deepEqual(ids((await page(service, PARTNER, '0')).body), [`${PARTNER}-1`, `${PARTNER}-2`, `${PARTNER}-9`]);
      // Its old last cursor, and any plain one beyond the file's last event: nothing is missed after it.
      for (const plain of ['9', '10', '999999999999999']) {
        assert.deepEqual((await page(service, PARTNER, plain)).body.events, [], plain);
      }
      await createAccount(service, { externalID: 'after-upgrade' });
      assert.deepEqual(ids((await page(service, PARTNER, '9')).body), ['after-upgrade']);
      assert.deepEqual(ids((await page(service, PARTNER, '999999999999999')).body), ['after-upgrade']);
      // The sealed cursor the upgrade gave goes on where the plain one stopped.
      assert.deepEqual(ids((await page(service, PARTNER, fromTwo.cursor)).body), ['after-upgrade']);
      kept = fromTwo.cursor;
    } finally {
      await service.close();
    }

    // The file is upgraded once: after a restart the same sealed cursor still works.
    const db = new Database(dataFile, { readonly: true });
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
    assert.deepEqual(
      db.prepare("SELECT value FROM settings WHERE name = 'plain_event_cursors_until'").pluck().get(),
      9,
    );
    db.close();
    const again = await startTestService({ dataFile, partners: PARTNERS });
    assert.deepEqual(ids((await page(again, PARTNER, kept)).body), ['after-upgrade']);
    assert.deepEqual(ids((await page(again, PARTNER, '2')).body), [`${PARTNER}-9`, 'after-upgrade']);
  });
});

test('a data file whose cursor key is missing is refused naming the file, and can be opened again once repaired', async () => {
  const dataFile = join(dir, 'no-cursor-key.db');
  const first = await startService({ port: 0, media: 'placeholder', dataFile, partners: PARTNERS });
  await first.close();
  const db = new Database(dataFile);
  db.prepare("DELETE FROM settings WHERE name = 'event_cursor_key'").run();
  db.close();
  await assert.rejects(
    startService({ port: 0, media: 'placeholder', dataFile, partners: PARTNERS }),
    new RegExp(`Cannot read the data file ${dataFile} \\(its event cursor settings are missing or damaged\\)`),
  );
  // The lock was released and the file closed: once the key is back, the file opens.
  const repair = new Database(dataFile);
  repair.prepare("INSERT INTO settings (name, value) VALUES ('event_cursor_key', randomblob(32))").run();
  repair.close();
  const again = await startTestService({ dataFile, partners: PARTNERS });
  assert.equal((await page(again, PARTNER)).status, 200);
});
