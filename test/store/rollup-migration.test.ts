// A SQLite database from before the rollup migration (migration 21 not applied, an old
// per-row insert trigger, totals that miss rows) is recounted on open, never counted
// twice. SQLite's own history: PostgreSQL databases start at the current migrations.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlatform } from '../helpers/platform.js';
import { saleBody } from '../helpers/bodies.js';
import { assertRollupExact } from '../helpers/rollup.js';
import { createSale } from '../../src/services/transactions/sale.js';
import { openPlatform } from '../../src/services/platform.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw } from '../../src/services/use-case.js';

test('a database from before the rollup migration (per-row insert trigger, stale totals) is recounted, never counted twice', async () => {
  const { p, demo } = await demoPlatform();
  const path = p.db.location;
  await executeRaw(createSale, p, contextFor(p, demo.group_id), saleBody(demo.processor_id));
  // Make it what an older payctl left: the latest rollup recount (migration 21) not
  // applied, an old per-row insert trigger in place, and totals that miss rows.
  await p.db.write(async (tx) => {
    await tx.run('DELETE FROM schema_migrations WHERE version = 21');
    await tx.run(`CREATE TRIGGER transactions_daily_insert AFTER INSERT ON transactions BEGIN
      INSERT INTO transaction_daily (group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id, tx_count, net_low)
      VALUES (NEW.group_id, substr(NEW.created_at, 1, 10), NEW.status, NEW.transaction_type, NEW.method_detail, COALESCE(NEW.brand, ''), NEW.source, NEW.currency, NEW.processor_id, 1, NEW.captured_amount - NEW.refunded_amount)
      ON CONFLICT (group_id, day, status, transaction_type, method_detail, brand, source, currency, processor_id) DO UPDATE SET tx_count = tx_count + 1, net_low = net_low + excluded.net_low;
    END`);
    await tx.run('DELETE FROM transaction_daily');
  });
  await p.close();
  const reopened = await openPlatform({ db: path });
  try {
    await assertRollupExact(reopened, 'after the migration');
    await executeRaw(createSale, reopened, contextFor(reopened, demo.group_id), saleBody(demo.processor_id));
    await assertRollupExact(reopened, 'after a new sale');
    const trigger = await reopened.db.get("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'transactions_daily_insert'");
    assert.equal(trigger, undefined);
  } finally {
    await reopened.close();
  }
});
