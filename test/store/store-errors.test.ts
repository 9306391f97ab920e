// A store outage, whichever store and driver: classified into one StoreUnavailable (the
// 503's cause), background work's pause and backoff, and serve's wait for its store at
// start. No store needed: the drivers' errors are built as they throw them.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asStoreUnavailable, isMissingReference, isRefusedRow, MAX_BACKOFF_MS, StoreUnavailable } from '../../src/store/errors.js';
import { storeUnavailable } from '../../src/http/pipeline/store-outage.js';
import { StoreWatch } from '../../src/services/store-watch.js';
import { waitForStore } from '../../src/cli/wait-for-store.js';
import { DbTargetError } from '../../src/config/env.js';

const err = (code: string | undefined, message: string) => Object.assign(new Error(message), code === undefined ? {} : { code });

test('driver errors of an unreachable or refusing store are one StoreUnavailable, by cause', () => {
  const cases: Array<[string | undefined, string, string]> = [
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432', 'connection_refused'],
    ['ECONNRESET', 'read ECONNRESET', 'connection_lost'],
    [undefined, 'Connection terminated unexpectedly', 'connection_lost'],
    [undefined, 'timeout exceeded when trying to connect', 'pool_exhausted'],
    ['57P01', 'terminating connection due to administrator command', 'shutting_down'],
    ['57P02', 'terminating connection because of crash of another server process', 'shutting_down'],
    ['57P03', 'the database system is starting up', 'starting_up'],
    ['53300', 'sorry, too many clients already', 'too_many_connections'],
    ['08006', 'connection failure', 'connection_lost'],
    ['08P01', 'protocol violation', 'connection_lost'],
    ['53100', 'could not extend file: No space left on device', 'disk_full'],
    ['25006', 'cannot execute INSERT in a read-only transaction', 'read_only'],
    ['SQLITE_FULL', 'SQLITE_FULL: database or disk is full', 'disk_full'],
    ['SQLITE_IOERR', 'SQLITE_IOERR: disk I/O error', 'io_error'],
    ['SQLITE_READONLY', 'SQLITE_READONLY: attempt to write a readonly database', 'read_only'],
    ['SQLITE_BUSY', 'SQLITE_BUSY: database is locked', 'locked'],
    ['SQLITE_CANTOPEN', 'SQLITE_CANTOPEN: unable to open database file', 'cannot_open'],
  ];
  for (const [code, message, reason] of cases) {
    const outage = asStoreUnavailable(err(code, message));
    assert.ok(outage instanceof StoreUnavailable, `${code} ${message}`);
    assert.equal(outage.reason, reason, `${code} ${message}`);
    assert.equal(outage.detail, message);
  }
  // A session ended by pg_terminate_backend (57P01) is not only a shutdown: the words say both.
  assert.equal(asStoreUnavailable(err('57P01', 'terminating connection due to administrator command'))!.words, 'the database ended the connection (it is shutting down, or the session was terminated)');
});

test('anything else is not an outage: a constraint, a serialization failure, a bug', () => {
  for (const [code, message] of [
    ['SQLITE_CONSTRAINT', 'FOREIGN KEY constraint failed'],
    ['23505', 'duplicate key value violates unique constraint'],
    ['40001', 'could not serialize access'],
    ['42P01', 'relation "x" does not exist'],
    [undefined, "Cannot read properties of undefined (reading 'id')"],
  ] as const) {
    assert.equal(asStoreUnavailable(err(code, message)), undefined, `${code} ${message}`);
  }
  assert.equal(asStoreUnavailable('a string'), undefined);
  assert.equal(asStoreUnavailable(null), undefined);
});

test('a refused row is any constraint of either store; a missing reference only a foreign key', () => {
  const sqliteUnique = Object.assign(new Error('SQLITE_CONSTRAINT: UNIQUE constraint failed: transactions.id'), { code: 'SQLITE_CONSTRAINT' });
  const sqliteFk = Object.assign(new Error('SQLITE_CONSTRAINT: FOREIGN KEY constraint failed'), { code: 'SQLITE_CONSTRAINT' });
  const pgUnique = Object.assign(new Error('duplicate key value violates unique constraint "transactions_pkey"'), { code: '23505' });
  const pgFk = Object.assign(new Error('insert or update violates foreign key constraint'), { code: '23503' });
  const pgCheck = Object.assign(new Error('new row violates check constraint'), { code: '23514' });
  for (const err of [sqliteUnique, sqliteFk, pgUnique, pgFk, pgCheck]) assert.equal(isRefusedRow(err), true, err.message);
  for (const err of [Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' }), Object.assign(new Error('could not serialize access'), { code: '40001' }), new Error('boom')]) {
    assert.equal(isRefusedRow(err), false, err.message);
  }
  assert.deepEqual([sqliteUnique, sqliteFk, pgUnique, pgFk].map(isMissingReference), [false, true, false, true]);
});

test('the 503 names the cause in words, says when to ask again, and never shows the driver text', () => {
  const lost = storeUnavailable(new StoreUnavailable('connection_refused', 'connect ECONNREFUSED 10.0.0.7:5432'), false);
  assert.equal(lost.status, 503);
  assert.deepEqual(lost.toBody(), {
    error: { type: 'store_unavailable', message: 'the store is unavailable: the database refused the connection (is it running?); retry in 1s' },
  });
  assert.deepEqual(lost.headers, { 'Retry-After': '1' });
  const full = storeUnavailable(new StoreUnavailable('disk_full', 'SQLITE_FULL'), true);
  assert.equal(full.headers?.['Retry-After'], '5');
  assert.match(full.message, /disk is full/);
  const unknown = storeUnavailable(new StoreUnavailable('commit_unknown', 'Connection terminated unexpectedly'), true);
  assert.match(unknown.message, /whether the write was saved is unknown; retry with the same Idempotency-Key/);
});

test('background work pauses on an outage with a doubling backoff up to its bound, says so once, and resumes', () => {
  let now = 0;
  const lines: string[] = [];
  const watch = new StoreWatch({ now: () => now, log: (l) => lines.push(l) });
  assert.equal(watch.paused(), false);
  assert.equal(watch.failed(new Error('a bug')), undefined, 'not an outage: no pause');
  assert.equal(watch.away, false);
  const waits: number[] = [];
  for (let i = 0; i < 8; i++) {
    assert.ok(watch.failed(err('ECONNREFUSED', 'connect ECONNREFUSED')));
    assert.equal(watch.paused(), true);
    let waited = 0;
    while (watch.paused()) (now += 50), (waited += 50);
    waits.push(waited);
  }
  assert.deepEqual(waits, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
  assert.equal(Math.max(...waits), MAX_BACKOFF_MS);
  assert.equal(lines.length, 1, 'said once');
  assert.match(lines[0]!, /^store unavailable: the database refused the connection/);
  assert.deepEqual([...watch.errors], [['connection_refused', 8]]);
  watch.succeeded();
  assert.equal(watch.away, false);
  assert.equal(watch.paused(), false);
  assert.match(lines[1]!, /^store available again after \d+\.\ds; background work resumed$/);
  watch.succeeded();
  assert.equal(lines.length, 2, 'back is said once too');
});

test('serve waits for a store that is not reachable yet, printing why, with a bounded backoff; other errors end it', async () => {
  const lines: string[] = [];
  const slept: number[] = [];
  let tries = 0;
  const opened = await waitForStore(
    async () => {
      if (++tries < 7) throw new DbTargetError('--db postgres://x: cannot connect to PostgreSQL', { cause: err('ECONNREFUSED', 'connect ECONNREFUSED') });
      return 'open';
    },
    { log: (l) => lines.push(l), sleep: async (ms) => void slept.push(ms) },
  );
  assert.equal(opened, 'open');
  assert.deepEqual(slept, [500, 1000, 2000, 4000, 5000, 5000]);
  assert.equal(lines.length, 6);
  assert.match(lines[0]!, /^waiting for the store: the database refused the connection \(is it running\?\) \(connect ECONNREFUSED\); trying again in 0.5s$/);
  await assert.rejects(
    waitForStore(async () => Promise.reject(new DbTargetError('--db mysql://x: mysql:// is not a database payctl opens')), { log: () => assert.fail('no wait'), sleep: async () => undefined }),
    /mysql:\/\/ is not a database/,
  );
});
