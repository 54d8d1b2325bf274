// A sandbox's records in the data file (issue 41): Store.removePartner removes every row of one
// partner in one transaction and nothing of any other's, and refuses its new records after; and a
// service started on a file that a killed run left sandboxes in removes them, records and media
// files, before anything resumes (docs/service.md "Sandboxes"). The HTTP side is
// test/http/sandboxes.test.ts.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { DEMO_PARTNER_ID } from '../../src/config.js';
import { Store } from '../../src/store/store.js';
import { startTestService } from '../support/helpers.js';

const dir = await mkdtemp(join(tmpdir(), 'video-plugin-sandbox-records-'));
after(() => rm(dir, { recursive: true, force: true }));
/** Stands for a kept picture: any bytes do. */
const picture = Buffer.from('a kept picture');
const source = 'http://127.0.0.1:9';

describe('a data file', () => {
  test('what a killed run left of its sandboxes is removed at start, records and files; configured partners keep theirs', async () => {
    const dataFile = join(dir, 'left.db');
    const media = `${dataFile}.media`;
    const store = await Store.open(dataFile);
    const now = new Date().toISOString();
    for (const [partnerID, id] of [
      ['sandbox_left', 'acct_left'],
      [DEMO_PARTNER_ID, 'acct_demo'],
    ] as const) {
      store.addAccount({ partnerID, id, createdAt: now, updatedAt: now } as never);
      store.createSession({ partnerID, accountID: id });
      store.appendEvent(partnerID, {
        type: 'account.created',
        id: `evt_${id}`,
        createdAt: now,
        accountID: id,
        data: { via: 'token', account: {} },
      } as never);
    }
    store.insert({
      kind: 'topic',
      record: {
        partnerID: 'sandbox_left',
        accountID: 'acct_left',
        id: 'topic_left',
        requestId: 'search_left',
        sourceURL: `${source}/left`,
        status: 'COMPLETE',
        images: [],
        createdAt: now,
        updatedAt: now,
      } as never,
    });
    await store.close();
    await mkdir(join(media, 'topics', 'topic_left'), { recursive: true });
    await writeFile(join(media, 'topics', 'topic_left', '0.jpg'), picture);

    const restarted = await startTestService({ partners: undefined, dataFile });
    assert.equal(restarted.stats().accounts, 1);
    assert.equal(restarted.stats().sessions, 1);
    assert.equal(restarted.stats().topics, 0);
    assert.equal(existsSync(join(media, 'topics', 'topic_left')), false);
    await restarted.close();
    const db = new Database(dataFile, { readonly: true });
    try {
      for (const table of ['accounts', 'sessions', 'topics', 'events']) {
        const rows = db.prepare(`SELECT partner_id FROM ${table}`).pluck().all();
        assert.ok(!rows.includes('sandbox_left'), `${table} keeps the sandbox's rows`);
      }
      assert.deepEqual(db.prepare('SELECT partner_id FROM accounts').pluck().all(), [DEMO_PARTNER_ID]);
    } finally {
      db.close();
    }
  });

  test('Store.removePartner removes every row of one partner in the file, and only its', async () => {
    const dataFile = join(dir, 'remove.db');
    const store = await Store.open(dataFile);
    const now = new Date().toISOString();
    for (const partnerID of ['sandbox_a', 'sandbox_b']) {
      const id = `acct_${partnerID}`;
      store.addAccount({ partnerID, id, externalID: 'x', createdAt: now, updatedAt: now } as never);
      store.createSession({ partnerID, accountID: id });
      store.useJti(partnerID, 'jti-1', Date.now() / 1000 + 60);
      store.appendEvent(partnerID, {
        type: 'account.created',
        id: `evt_${partnerID}`,
        createdAt: now,
        accountID: id,
        data: { via: 'token', account: {} },
      } as never);
      store.saveDelivery({
        id: `dlv_${partnerID}`,
        partnerID,
        url: 'http://127.0.0.1:9/',
        attempts: 0,
        createdAt: now,
        event: { id: `evt_${partnerID}` } as never,
      });
      store.idempotent({ partnerID, accountID: id }, 'key-1', 'print', () => ({ ok: true }));
    }
    const removed = store.removePartner('sandbox_a');
    assert.equal(removed.sessionKeys.length, 1);
    assert.equal(store.findAccountByExternalID('sandbox_a', 'x'), undefined);
    assert.ok(store.findAccountByExternalID('sandbox_b', 'x'));
    assert.deepEqual(store.events('sandbox_a', 0, 10).events, []);
    // Nothing more of it is written.
    assert.throws(() => store.createSession({ partnerID: 'sandbox_a', accountID: 'acct_sandbox_a' }), {
      code: 'sandbox_expired',
    });
    await store.close();
    const db = new Database(dataFile, { readonly: true });
    try {
      for (const table of ['accounts', 'sessions', 'used_jtis', 'webhook_outbox', 'idempotency_keys', 'events']) {
        const rows = db.prepare(`SELECT partner_id FROM ${table}`).pluck().all();
        assert.deepEqual(rows, ['sandbox_b'], table);
      }
    } finally {
      db.close();
    }
  });
});
