// The claims of a shared database (jobs/claims.ts) outlive a restart of PostgreSQL: while it is
// down a claim fails at once, and the first asked for once it is back connects again and is taken.
// (A kept connection that had ended once made every later claim fail, so jobs queued after a
// restart were never run.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Claims } from '../../src/jobs/claims.js';
import { postgresMissing, startPostgres } from '../support/postgres.js';

const missing = postgresMissing();

test('claims connect again after PostgreSQL restarts', missing ? { skip: missing } : { timeout: 120_000 }, async () => {
  const server = await startPostgres();
  const claims = await Claims.open(await server.database('claims'), 1, 'claims test');
  try {
    assert.equal(await claims.take('before'), true);
    await server.stop();
    await assert.rejects(claims.take('while-down'), /ECONNREFUSED/);
    await server.start();
    assert.equal(await claims.take('after'), true, 'the first claim once it is back');
    assert.equal(await claims.take('after'), false, 'held: not taken twice');
  } finally {
    await claims.end();
  }
});
