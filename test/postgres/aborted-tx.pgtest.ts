// A write that catches a statement's failure and goes on meets PostgreSQL's 25P02 ("current
// transaction is aborted") on its next statement. That answer is never the cause: the write
// fails of the transaction's first failure (store/postgres/tx.ts causeOf). The fault suite
// met it: with the database made read-only, a sale's write caught the 25006 and went on,
// and its 25P02 was answered 500 instead of 503 store_unavailable.
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { StoreUnavailable } from '../../src/store/errors.js';
import { tempDbPath } from '../helpers/platform.js';

let p: Platform;
before(async () => {
  p = await openPlatform({ db: tempDbPath() });
});
after(() => p.close());

const raise = (code: string) => `DO $$ BEGIN RAISE EXCEPTION 'raised for the test' USING ERRCODE = '${code}'; END $$`;

test("a failure caught inside a write, then 25P02 on the next statement: the write fails of the first (read-only: a store outage)", async () => {
  const failed = await p.db
    .write(async (tx) => {
      await tx.run(raise('25006')).catch(() => undefined);
      await tx.run('SELECT 1');
    })
    .then(
      () => undefined,
      (err: unknown) => err,
    );
  assert.ok(failed instanceof StoreUnavailable, `a StoreUnavailable, not ${String(failed)}`);
  assert.equal(failed.reason, 'read_only');
  // The store goes on: the next write commits.
  assert.equal(await p.db.write(async (tx) => (await tx.get<{ n: number }>('SELECT 1 AS n'))?.n), 1);
});

test('a failure that is no outage stays what it was, not 25P02', async () => {
  const failed = await p.db
    .write(async (tx) => {
      await tx.run(raise('22012')).catch(() => undefined);
      await tx.run('SELECT 1');
    })
    .then(
      () => undefined,
      (err: unknown) => err as { code?: string },
    );
  assert.equal(failed?.code, '22012');
});
