// The billing engine on the platform clock: a year of billing per cycle, trials, retries,
// prorations, plan updates, and idempotency (double advance, concurrent runs, two
// processes). The clock is frozen (no real time passes) so every date and cent is exact.
import '../helpers/env.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tempDbPath } from '../helpers/platform.js';
import { openPlatform, type Platform } from '../../src/services/platform.js';
import { DbClock } from '../../src/services/clock/clock.js';
import { advanceClock } from '../../src/services/clock/clock-control.js';
import { runDueWork } from '../../src/services/clock/scheduler.js';
import { createGroup, createLinkedAccount, createProcessor } from '../../src/services/groups/groups.js';
import { createCustomer, storeCard } from '../../src/services/customers/customers.js';
import { fixedToken } from '../../src/services/tokens/tokens.js';
import { createPlan, updatePlan } from '../../src/services/recurring/plans.js';
import {
  cancelSubscription,
  createSubscription,
  getSubscription,
  updateSubscription,
} from '../../src/services/recurring/subscriptions.js';
import { billDueSubscriptions, BILLING_BATCH_SIZE } from '../../src/services/recurring/billing.js';
import { subscriptionChargeRepo } from '../../src/store/sql/repositories/subscriptions.js';
import type { Subscription } from '../../src/domain/recurring.js';
import { US_BILLING } from '../helpers/bodies.js';
import { contextFor } from '../../src/services/context.js';
import { executeRaw, withParams, execute } from '../../src/services/use-case.js';

const DAY = 86_400_000;

/** A platform whose clock stands still at `at` until advanced. */
async function frozenPlatform(at: string, dbPath = tempDbPath()): Promise<Platform> {
  const p = await openPlatform({ db: dbPath });
  p.clock = new DbClock(p.db, () => 0);
  await p.clock.setOffset(Date.parse(at));
  return p;
}

interface Fixture {
  p: Platform;
  groupId: string;
  accountId: string;
  customerId: string;
  processorId: string;
  card(token?: string): Promise<string>;
  plan(body: Record<string, unknown>): Promise<string>;
  subscribe(planId: string, extra?: Record<string, unknown>): Promise<Subscription>;
  get(id: string): Promise<Subscription>;
  advanceDays(days: number): Promise<void>;
  charges(subscriptionId: string): Promise<Array<{ requested_amount: number; status: string; included_tax_amount: number | null; included_shipping_amount: number | null; source: string; plan_id: string; subscription_id: string }>>;
  ledger(subscriptionId: string): Promise<Array<{ kind: string; period: number; attempt: number; due_at: string; outcome: string; amount: number }>>;
}

const ADDRESS = US_BILLING;

async function fixture(at: string): Promise<Fixture> {
  const p = await frozenPlatform(at);
  const group = await execute(createGroup, p, contextFor(p, undefined), { name: 'Billing test merchant' });
  const processor = await execute(createProcessor, p, contextFor(p, group.id), { type: 'transaction_level' });
  const account = await execute(createLinkedAccount, p, contextFor(p, group.id), { processor_id: processor.id });
  const customer = await executeRaw(createCustomer, p, contextFor(p, group.id), { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  const f: Fixture = {
    p,
    groupId: group.id,
    accountId: account.id,
    customerId: customer.id,
    processorId: processor.id,
    async card(token = 'tok_visa') {
      const row = await p.db.write((tx) =>
        storeCard(tx, {
          groupId: group.id,
          customerId: customer.id,
          linkedAccountId: account.id,
          token: fixedToken(token, p.clock.now())!,
          billing: { line_1: '1 Main St', city: 'Springfield', subdivision: 'IL', postal_code: '62701', country: 'US' },
          now: p.clock.nowIso(),
        }),
      );
      return row.id;
    },
    async plan(body) {
      return (await executeRaw(createPlan, p, contextFor(p, group.id), withParams({ name: 'Plan', duration: 0, ...body }, { linked_account_id: account.id }))).id;
    },
    async subscribe(planId, extra = {}) {
      const card = extra.payment_details || extra.bank_account_id || extra.card_id ? {} : { card_id: await f.card() };
      return executeRaw(createSubscription, p, contextFor(p, group.id), withParams({ plan_id: planId, customer_id: customer.id, billing_address: ADDRESS, ...card, ...extra }, { linked_account_id: account.id }));
    },
    get: (id) => executeRaw(getSubscription, p, contextFor(p, group.id), { linked_account_id: account.id, subscription_id: id }),
    async advanceDays(days) {
      await advanceClock(p, days * DAY);
    },
    charges: (id) =>
      p.db.all('SELECT * FROM transactions WHERE subscription_id = ? ORDER BY created_at, id', [id]),
    ledger: (id) => subscriptionChargeRepo.listBySubscription(p.db, id),
  };
  return f;
}

/** The body of Update subscription that keeps everything of `s` but what `patch` changes. */
function updateBody(s: Subscription, patch: Record<string, unknown> = {}, amounts: Record<string, unknown> = {}) {
  return {
    plan_id: s.plan_id,
    processor_id: s.processor_id,
    currency: 'USD',
    amounts: { requested_amount: s.amounts.amount, ...amounts },
    billing_address: ADDRESS,
    billing_cycle: s.billing_cycle,
    billing_factor: s.billing_factor,
    duration: s.duration,
    max_retry_count: s.metadata.max_retry_count,
    ...patch,
  };
}

const day = (iso: string) => iso.slice(0, 10);

// ---------------------------------------------------------------------------

describe('a year of billing on the clock, per billing cycle', () => {
  const T0 = '2031-01-31T10:00:00.000Z';
  const cases: Array<{ cycle: string; factor?: number; charges: number; first: string[]; next: string }> = [
    { cycle: 'daily', charges: 366, first: ['2031-01-31', '2031-02-01', '2031-02-02'], next: '2032-02-01' },
    { cycle: 'daily', factor: 30, charges: 13, first: ['2031-01-31', '2031-03-02', '2031-04-01'], next: '2032-02-25' },
    { cycle: 'weekly', charges: 53, first: ['2031-01-31', '2031-02-07', '2031-02-14'], next: '2032-02-06' },
    {
      cycle: 'monthly',
      charges: 13,
      first: ['2031-01-31', '2031-02-28', '2031-03-31', '2031-04-30', '2031-05-31', '2031-06-30', '2031-07-31', '2031-08-31', '2031-09-30', '2031-10-31', '2031-11-30', '2031-12-31', '2032-01-31'],
      next: '2032-02-29',
    },
    { cycle: 'quarterly', charges: 5, first: ['2031-01-31', '2031-04-30', '2031-07-31', '2031-10-31', '2032-01-31'], next: '2032-04-30' },
    { cycle: 'semiannual', charges: 3, first: ['2031-01-31', '2031-07-31', '2032-01-31'], next: '2032-07-31' },
    { cycle: 'annual', charges: 2, first: ['2031-01-31', '2032-01-31'], next: '2033-01-31' },
  ];

  it('bills every cycle due in 365 days (four clock advances), month ends clamped', async () => {
    const f = await fixture(T0);
    try {
      const subs: Array<{ c: (typeof cases)[number]; id: string }> = [];
      for (const c of cases) {
        const planId = await f.plan({ amount: 1000, tax: 80, shipping_amount: 120, billing_cycle: c.cycle, billing_factor: c.factor ?? 1 });
        subs.push({ c, id: (await f.subscribe(planId)).id });
      }
      for (const days of [91, 91, 91, 92]) await f.advanceDays(days);
      for (const { c, id } of subs) {
        const label = `${c.cycle}×${c.factor ?? 1}`;
        const s = await f.get(id);
        assert.equal(s.metadata.charge_count, c.charges, label);
        assert.equal(s.status, 'active', label);
        assert.equal(day(s.next_bill_date!), c.next, label);
        const ledger = await f.ledger(id);
        assert.equal(ledger.length, c.charges, label);
        assert.deepEqual(ledger.slice(0, c.first.length).map((l) => day(l.due_at)), c.first, label);
        assert.ok(ledger.every((l) => l.kind === 'regular' && l.attempt === 0 && l.outcome === 'approved'), label);
        assert.deepEqual(ledger.map((l) => l.period), [...Array(c.charges).keys()], label);
        const txs = await f.charges(id);
        assert.equal(txs.length, c.charges, label);
        for (const t of txs) {
          // Tax and shipping are included in the amount, not added to it.
          assert.deepEqual(
            [t.requested_amount, t.included_tax_amount, t.included_shipping_amount, t.source, t.plan_id, t.subscription_id],
            [1000, 80, 120, 'recurring', s.plan_id, id],
            label,
          );
          assert.notEqual(t.status, 'declined', label);
        }
      }
      // The monthly subscription's billed period is the last cycle: Jan 31 → Feb 29 (leap year).
      const monthly = await f.get(subs.find((s) => s.c.cycle === 'monthly')!.id);
      assert.equal(monthly.metadata.billing_period_start, '2032-01-31T10:00:00.000Z');
      assert.equal(monthly.metadata.billing_period_end, '2032-02-29T10:00:00.000Z');
    } finally {
      await f.p.close();
    }
  });

  it('the same year in one advance bills the same cycles', async () => {
    const f = await fixture(T0);
    try {
      const planId = await f.plan({ amount: 1000, billing_cycle: 'monthly' });
      const s = await f.subscribe(planId);
      await f.advanceDays(365);
      assert.equal((await f.get(s.id)).metadata.charge_count, 13);
    } finally {
      await f.p.close();
    }
  });
});

describe('amounts, duration and trials', () => {
  it('initial_amount first, then amount; completed after duration charges', async () => {
    const f = await fixture('2031-03-01T00:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 2000, initial_amount: 5000, tax: 150, billing_cycle: 'monthly', duration: 3 });
      const created = await f.subscribe(planId);
      assert.equal(created.metadata.charge_count, 1);
      assert.equal(created.next_bill_date, '2031-04-01T00:00:00.000Z');
      await f.advanceDays(365);
      const s = await f.get(created.id);
      assert.equal(s.status, 'completed');
      assert.equal(s.next_bill_date, null);
      assert.equal(s.metadata.charge_count, 3);
      assert.deepEqual((await f.charges(s.id)).map((t) => [t.requested_amount, t.included_tax_amount]), [[5000, 150], [2000, 150], [2000, 150]]);
    } finally {
      await f.p.close();
    }
  });

  it('subscription amounts override the plan; null means the plan\'s', async () => {
    const f = await fixture('2031-03-01T00:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 2000, tax: 150, shipping_amount: 100, billing_cycle: 'monthly' });
      const s = await f.subscribe(planId, { amounts: { requested_amount: 1500, included_tax_amount: null, included_shipping_amount: 0 } });
      assert.deepEqual(s.amounts, { amount: 1500, tax_amount: 150, initial_amount: null, shipping_amount: 0 });
      const [t] = await f.charges(s.id);
      assert.deepEqual([t!.requested_amount, t!.included_tax_amount, t!.included_shipping_amount], [1500, 150, 0]);
    } finally {
      await f.p.close();
    }
  });

  it('trial then paid: trial_amount at the start, initial_amount at the trial\'s end, then amount', async () => {
    const T0 = '2031-05-10T12:00:00.000Z';
    const f = await fixture(T0);
    try {
      const planId = await f.plan({ amount: 2000, initial_amount: 5000, trial_period_days: 14, trial_amount: 100, billing_cycle: 'monthly' });
      const s0 = await f.subscribe(planId);
      assert.equal(s0.metadata.charge_count, 0);
      assert.equal(s0.next_bill_date, '2031-05-24T12:00:00.000Z');
      assert.equal(s0.metadata.billing_period_start, T0);
      assert.equal(s0.metadata.billing_period_end, '2031-05-24T12:00:00.000Z');
      assert.deepEqual((await f.charges(s0.id)).map((t) => t.requested_amount), [100]);

      await f.advanceDays(13);
      assert.equal((await f.charges(s0.id)).length, 1, 'nothing during the trial');
      await f.advanceDays(1);
      const s1 = await f.get(s0.id);
      assert.equal(s1.metadata.charge_count, 1);
      assert.equal(s1.next_bill_date, '2031-06-24T12:00:00.000Z');
      await f.advanceDays(31);
      assert.deepEqual((await f.charges(s0.id)).map((t) => t.requested_amount), [100, 5000, 2000]);
      assert.deepEqual((await f.ledger(s0.id)).map((l) => [l.kind, l.period]), [['trial', -1], ['regular', 0], ['regular', 1]]);
    } finally {
      await f.p.close();
    }
  });

  it('a free trial makes no transaction; duration counts regular charges only', async () => {
    const f = await fixture('2031-05-10T12:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 900, trial_period_days: 7, billing_cycle: 'weekly', duration: 2 });
      const s = await f.subscribe(planId);
      assert.equal((await f.charges(s.id)).length, 0);
      assert.deepEqual((await f.ledger(s.id)).map((l) => [l.kind, l.outcome]), [['trial', 'free']]);
      await f.advanceDays(60);
      const done = await f.get(s.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual((await f.charges(s.id)).map((t) => t.requested_amount), [900, 900]);
    } finally {
      await f.p.close();
    }
  });

  it('a start date in the future bills nothing until it comes', async () => {
    const f = await fixture('2031-05-10T12:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 900, billing_cycle: 'monthly' });
      const s = await f.subscribe(planId, { start_date: '2031-06-01' });
      assert.equal(s.next_bill_date, '2031-06-01T00:00:00.000Z');
      assert.equal((await f.charges(s.id)).length, 0);
      await f.advanceDays(22);
      assert.equal((await f.get(s.id)).metadata.charge_count, 1);
    } finally {
      await f.p.close();
    }
  });
});

describe('backdated starts: the current period is billed once, never each missed cycle', () => {
  it('a daily plan started in 1970 bills one charge at creation; the next is the end of the current period', async () => {
    const f = await fixture('2031-05-10T12:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 900, billing_cycle: 'daily' });
      const s = await f.subscribe(planId, { start_date: '1970-01-01T06:00:00Z' });
      assert.equal((await f.charges(s.id)).length, 1);
      assert.equal(s.metadata.charge_count, 1);
      // Periods keep the start's time of day: 06:00 → 06:00.
      assert.equal(s.metadata.billing_period_start, '2031-05-10T06:00:00.000Z');
      assert.equal(s.metadata.billing_period_end, '2031-05-11T06:00:00.000Z');
      assert.equal(s.next_bill_date, '2031-05-11T06:00:00.000Z');
      assert.deepEqual((await f.ledger(s.id)).map((l) => [l.kind, l.period, l.due_at]), [['regular', 0, '2031-05-10T12:00:00.000Z']]);
      await f.advanceDays(2);
      assert.deepEqual((await f.ledger(s.id)).map((l) => l.period), [0, 1, 2]);
      assert.equal((await f.get(s.id)).next_bill_date, '2031-05-13T06:00:00.000Z');
    } finally {
      await f.p.close();
    }
  });

  it('duration counts charges from the first one: a 3-charge monthly plan started 10 months back bills 3 times, on the start\'s day of month', async () => {
    const f = await fixture('2031-11-15T09:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 1200, billing_cycle: 'monthly', duration: 3 });
      const s = await f.subscribe(planId, { start_date: '2031-01-31' });
      assert.equal(s.metadata.charge_count, 1);
      assert.equal(s.metadata.billing_period_start, '2031-10-31T00:00:00.000Z');
      // November has 30 days; the month-end anchor comes back in December.
      assert.equal(s.next_bill_date, '2031-11-30T00:00:00.000Z');
      await f.advanceDays(60);
      const done = await f.get(s.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual((await f.charges(s.id)).map((t) => t.requested_amount), [1200, 1200, 1200]);
      assert.deepEqual((await f.ledger(s.id)).map((l) => day(l.due_at)), ['2031-11-15', '2031-11-30', '2031-12-31']);
    } finally {
      await f.p.close();
    }
  });

  it('a start whose trial is over skips the trial charge; one still in its trial pays the trial charge once', async () => {
    const f = await fixture('2031-03-01T00:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 3000, billing_cycle: 'monthly', trial_period_days: 14, trial_amount: 100 });
      const over = await f.subscribe(planId, { start_date: '2030-12-01' });
      assert.deepEqual((await f.charges(over.id)).map((t) => t.requested_amount), [3000]);
      assert.equal(over.metadata.billing_period_start, '2031-02-15T00:00:00.000Z');
      assert.equal(over.next_bill_date, '2031-03-15T00:00:00.000Z');
      const inTrial = await f.subscribe(planId, { start_date: '2031-02-20' });
      assert.deepEqual((await f.charges(inTrial.id)).map((t) => t.requested_amount), [100]);
      assert.equal(inTrial.next_bill_date, '2031-03-06T00:00:00.000Z');
    } finally {
      await f.p.close();
    }
  });

  it('a declined first charge of a backdated start retries from now, not from the missed dates', async () => {
    const f = await fixture('2031-05-10T12:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 900, billing_cycle: 'weekly', max_retry_count: 2, retry_policy: { steps: [{ delay_days: 1 }, { delay_days: 1 }] } });
      const s = await f.subscribe(planId, { start_date: '2020-01-01', card_id: await f.card('tok_visa_declined') });
      assert.deepEqual([s.status, s.retry_count, s.next_bill_date], ['active', 1, '2031-05-11T12:00:00.000Z']);
      assert.equal((await f.charges(s.id)).length, 1);
    } finally {
      await f.p.close();
    }
  });
});

describe('retries', () => {
  it('retries a declined card on the plan\'s policy, then fails', async () => {
    const T0 = '2031-02-01T09:00:00.000Z';
    const f = await fixture(T0);
    try {
      const planId = await f.plan({
        amount: 2500,
        billing_cycle: 'monthly',
        max_retry_count: 3,
        retry_policy: { steps: [{ delay_days: 2 }, { delay_days: 5 }, { delay_days: 10 }] },
      });
      const s0 = await f.subscribe(planId, { card_id: await f.card('tok_visa_declined') });
      assert.deepEqual([s0.status, s0.retry_count, s0.metadata.failure_attempt_count, s0.metadata.charge_count], ['active', 1, 1, 0]);
      assert.equal(s0.next_bill_date, '2031-02-03T09:00:00.000Z');

      await f.advanceDays(1);
      assert.equal((await f.get(s0.id)).retry_count, 1, 'not yet');
      await f.advanceDays(1);
      let s = await f.get(s0.id);
      assert.deepEqual([s.retry_count, s.metadata.failure_attempt_count, s.next_bill_date], [2, 2, '2031-02-08T09:00:00.000Z']);
      await f.advanceDays(5);
      s = await f.get(s0.id);
      assert.deepEqual([s.retry_count, s.metadata.failure_attempt_count, s.next_bill_date], [3, 3, '2031-02-18T09:00:00.000Z']);
      await f.advanceDays(10);
      s = await f.get(s0.id);
      assert.deepEqual([s.status, s.retry_count, s.metadata.failure_attempt_count, s.metadata.charge_count, s.next_bill_date], ['failed', 3, 4, 0, null]);

      await f.advanceDays(60);
      const txs = await f.charges(s0.id);
      assert.equal(txs.length, 4, 'nothing after failed');
      assert.ok(txs.every((t) => t.status === 'declined'));
      assert.deepEqual((await f.ledger(s0.id)).map((l) => [l.period, l.attempt, day(l.due_at)]), [
        [0, 0, '2031-02-01'],
        [0, 1, '2031-02-03'],
        [0, 2, '2031-02-08'],
        [0, 3, '2031-02-18'],
      ]);
    } finally {
      await f.p.close();
    }
  });

  it('without a policy: the default delays 1, 3, 5 days (max_retry_count 3), all in one advance', async () => {
    const f = await fixture('2031-02-01T09:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 2500, billing_cycle: 'monthly' });
      const s0 = await f.subscribe(planId, { card_id: await f.card('tok_insufficient_funds') });
      await f.advanceDays(30);
      const s = await f.get(s0.id);
      assert.deepEqual([s.status, s.retry_count, s.metadata.failure_attempt_count], ['failed', 3, 4]);
      assert.deepEqual((await f.ledger(s0.id)).map((l) => day(l.due_at)), ['2031-02-01', '2031-02-02', '2031-02-05', '2031-02-10']);
    } finally {
      await f.p.close();
    }
  });

  it('a retry that succeeds (new card via update) resets retry_count and keeps the calendar', async () => {
    const f = await fixture('2031-02-01T09:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 2500, billing_cycle: 'monthly', proration_behavior: 'none' });
      const s0 = await f.subscribe(planId, { card_id: await f.card('tok_visa_declined') });
      const updated = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(s0, { payment_details: { token: 'tok_mastercard' } }), { linked_account_id: f.accountId, subscription_id: s0.id }));
      assert.equal(updated.payment_details.card?.brand, 'Mastercard');
      assert.equal(updated.retry_count, 1);
      await f.advanceDays(1);
      const s = await f.get(s0.id);
      assert.deepEqual([s.status, s.retry_count, s.metadata.failure_attempt_count, s.metadata.charge_count], ['active', 0, 1, 1]);
      assert.equal(s.next_bill_date, '2031-03-01T09:00:00.000Z');
      assert.deepEqual((await f.charges(s0.id)).map((t) => t.status === 'declined'), [true, false]);
    } finally {
      await f.p.close();
    }
  });

  it('ACH is never retried', async () => {
    const f = await fixture('2031-02-01T09:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 2500, billing_cycle: 'monthly', max_retry_count: 5 });
      const s = await f.subscribe(planId, { payment_details: { token: 'tok_ach_insufficient_funds' } });
      assert.deepEqual([s.payment_method, s.status, s.retry_count, s.metadata.failure_attempt_count, s.next_bill_date], ['ach', 'failed', 0, 1, null]);
      assert.deepEqual(s.payment_details, { bank_account: { account_type: 'checking', last_four: '1116' } });
      const ok = await f.subscribe(planId, { payment_details: { token: 'tok_ach' } });
      assert.deepEqual([ok.payment_method, ok.status, ok.metadata.charge_count], ['ach', 'active', 1]);
    } finally {
      await f.p.close();
    }
  });
});

describe('proration (April 2031: 30 days; change on April 11 = 20 days left)', () => {
  const T0 = '2031-04-01T00:00:00.000Z';
  async function midCycle(planBody: Record<string, unknown> = {}) {
    const f = await fixture(T0);
    const planId = await f.plan({ amount: 3000, billing_cycle: 'monthly', proration_behavior: 'none', ...planBody });
    const s = await f.subscribe(planId);
    await f.advanceDays(10);
    return { f, s, planId };
  }

  it('none: nothing now, the new amount from the next cycle', async () => {
    const { f, s } = await midCycle();
    try {
      const u = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(s, { proration_behavior: 'none' }, { requested_amount: 4000 }), { linked_account_id: f.accountId, subscription_id: s.id }));
      assert.deepEqual([u.proration_result, u.pending_proration_amount, u.amounts.amount], ['none', 0, 4000]);
      await f.advanceDays(20);
      assert.deepEqual((await f.charges(s.id)).map((t) => t.requested_amount), [3000, 4000]);
    } finally {
      await f.p.close();
    }
  });

  it('create_prorations: +667 (1000 × 20/30) added to the next charge', async () => {
    const { f, s } = await midCycle();
    try {
      const u = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(s, { proration_behavior: 'create_prorations' }, { requested_amount: 4000 }), { linked_account_id: f.accountId, subscription_id: s.id }));
      assert.deepEqual([u.proration_result, u.pending_proration_amount], ['pending', 667]);
      assert.equal((await f.charges(s.id)).length, 1, 'no charge now');
      await f.advanceDays(20);
      const after = await f.get(s.id);
      assert.deepEqual([after.proration_result, after.pending_proration_amount], ['applied', 0]);
      await f.advanceDays(31);
      assert.deepEqual((await f.charges(s.id)).map((t) => t.requested_amount), [3000, 4667, 4000]);
    } finally {
      await f.p.close();
    }
  });

  it('immediate_action: 667 charged at once; the next charge is the new amount', async () => {
    const { f, s } = await midCycle();
    try {
      const u = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(s, { proration_behavior: 'immediate_action' }, { requested_amount: 4000 }), { linked_account_id: f.accountId, subscription_id: s.id }));
      assert.deepEqual([u.proration_result, u.pending_proration_amount], ['applied', 0]);
      assert.deepEqual((await f.charges(s.id)).map((t) => t.requested_amount), [3000, 667]);
      assert.deepEqual((await f.ledger(s.id)).map((l) => [l.kind, l.period, l.amount]), [['regular', 0, 3000], ['proration', 0, 667]]);
      await f.advanceDays(20);
      assert.deepEqual((await f.charges(s.id)).map((t) => t.requested_amount), [3000, 667, 4000]);
    } finally {
      await f.p.close();
    }
  });

  it('immediate_action on a downgrade: the credit (−667) goes to the next charge', async () => {
    const { f, s } = await midCycle();
    try {
      const u = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(s, { proration_behavior: 'immediate_action' }, { requested_amount: 2000 }), { linked_account_id: f.accountId, subscription_id: s.id }));
      assert.deepEqual([u.proration_result, u.pending_proration_amount], ['pending', -667]);
      await f.advanceDays(20);
      assert.deepEqual((await f.charges(s.id)).map((t) => t.requested_amount), [3000, 1333]);
    } finally {
      await f.p.close();
    }
  });

  it('the override applies to that update only; later updates use the plan\'s behavior', async () => {
    const { f, s } = await midCycle({ proration_behavior: 'none' });
    try {
      const first = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(s, { proration_behavior: 'create_prorations' }, { requested_amount: 4000 }), { linked_account_id: f.accountId, subscription_id: s.id }));
      assert.equal(first.pending_proration_amount, 667);
      const second = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(first, {}, { requested_amount: 7000 }), { linked_account_id: f.accountId, subscription_id: s.id }));
      assert.deepEqual([second.pending_proration_amount, second.proration_result, second.amounts.amount], [667, 'pending', 7000]);
    } finally {
      await f.p.close();
    }
  });

  it('a declined immediate proration is recorded as failed', async () => {
    const f = await fixture(T0);
    try {
      const planId = await f.plan({ amount: 3000, billing_cycle: 'monthly', proration_behavior: 'immediate_action' });
      const s = await f.subscribe(planId);
      await f.advanceDays(10);
      const body = updateBody(s, { payment_details: { token: 'tok_visa_declined' } }, { requested_amount: 4000 });
      const u = await executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(body, { linked_account_id: f.accountId, subscription_id: s.id }));
      assert.equal(u.proration_result, 'failed');
      assert.deepEqual((await f.charges(s.id)).map((t) => [t.requested_amount, t.status === 'declined']), [[3000, false], [667, true]]);
    } finally {
      await f.p.close();
    }
  });
});

describe('plan update', () => {
  const T0 = '2031-04-01T00:00:00.000Z';
  async function setup() {
    const f = await fixture(T0);
    const planId = await f.plan({ amount: 3000, billing_cycle: 'monthly', description: 'v1' });
    const active = await f.subscribe(planId);
    const canceled = await f.subscribe(planId);
    await executeRaw(cancelSubscription, f.p, contextFor(f.p, f.groupId), { linked_account_id: f.accountId, subscription_id: canceled.id });
    await f.advanceDays(10);
    return { f, planId, active, canceled };
  }
  const update = (f: Fixture, planId: string, body: Record<string, unknown>) =>
    executeRaw(updatePlan, f.p, contextFor(f.p, f.groupId), withParams({ name: 'Plan v2', amount: 4000, billing_cycle: 'monthly', duration: 0, description: 'v2', tax: 100, ...body }, { linked_account_id: f.accountId, plan_id: planId }));

  it('update_subscriptions + prorate: active subscriptions take the values and pay 667 now', async () => {
    const { f, planId, active, canceled } = await setup();
    try {
      const plan = await update(f, planId, { update_subscriptions: true, prorate: true });
      assert.deepEqual([plan.amount, plan.name, plan.description, plan.tax], [4000, 'Plan v2', 'v2', 100]);
      const s = await f.get(active.id);
      assert.deepEqual([s.amounts.amount, s.amounts.tax_amount, s.proration_result], [4000, 100, 'applied']);
      assert.deepEqual((await f.charges(active.id)).map((t) => t.requested_amount), [3000, 667]);
      const c = await f.get(canceled.id);
      assert.deepEqual([c.status, c.amounts.amount], ['canceled', 3000]);
      assert.equal((await f.charges(canceled.id)).length, 1);
    } finally {
      await f.p.close();
    }
  });

  it('update_subscriptions without prorate: new amount from the next cycle, nothing now', async () => {
    const { f, planId, active } = await setup();
    try {
      await update(f, planId, { update_subscriptions: true, prorate: false });
      const s = await f.get(active.id);
      assert.deepEqual([s.amounts.amount, s.proration_result, s.pending_proration_amount], [4000, 'none', 0]);
      await f.advanceDays(20);
      assert.deepEqual((await f.charges(active.id)).map((t) => t.requested_amount), [3000, 4000]);
    } finally {
      await f.p.close();
    }
  });

  it('without update_subscriptions existing subscriptions keep their values (prorate ignored)', async () => {
    const { f, planId, active } = await setup();
    try {
      await update(f, planId, { update_subscriptions: false, prorate: true });
      const s = await f.get(active.id);
      assert.equal(s.amounts.amount, 3000);
      await f.advanceDays(20);
      assert.deepEqual((await f.charges(active.id)).map((t) => t.requested_amount), [3000, 3000]);
      // A new subscription takes the new values.
      const fresh = await f.subscribe(planId);
      assert.equal(fresh.amounts.amount, 4000);
    } finally {
      await f.p.close();
    }
  });

  it('a new duration completes subscriptions that have billed that many cycles', async () => {
    const { f, planId, active } = await setup();
    try {
      await update(f, planId, { amount: 3000, update_subscriptions: true, prorate: false, duration: 1 });
      const s = await f.get(active.id);
      assert.deepEqual([s.status, s.next_bill_date], ['completed', null]);
    } finally {
      await f.p.close();
    }
  });

  it('a new billing cycle starts at the end of the period already paid for', async () => {
    const { f, planId, active } = await setup();
    try {
      await update(f, planId, { amount: 3000, billing_cycle: 'annual', update_subscriptions: true, prorate: false });
      const s = await f.get(active.id);
      assert.equal(s.billing_cycle, 'annual');
      assert.equal(s.next_bill_date, '2031-05-01T00:00:00.000Z');
      await f.advanceDays(21);
      assert.equal((await f.get(active.id)).next_bill_date, '2032-05-01T00:00:00.000Z');
    } finally {
      await f.p.close();
    }
  });
});

describe('idempotency', () => {
  const T0 = '2031-01-01T00:00:00.000Z';

  it('advancing twice over the same period charges each cycle once', async () => {
    const f = await fixture(T0);
    try {
      const planId = await f.plan({ amount: 1000, billing_cycle: 'monthly' });
      const s = await f.subscribe(planId);
      await f.advanceDays(31);
      await f.advanceDays(0);
      await runDueWork(f.p);
      assert.equal((await f.charges(s.id)).length, 2);
      assert.equal((await f.get(s.id)).metadata.charge_count, 2);
    } finally {
      await f.p.close();
    }
  });

  it('two concurrent runs in one process charge once', async () => {
    const f = await fixture(T0);
    try {
      const planId = await f.plan({ amount: 1000, billing_cycle: 'monthly' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await f.subscribe(planId)).id);
      // One run first, with nothing due: it prepares the reader's statements, which
      // Connection.statement() (src/store/db.ts) would otherwise prepare twice when two
      // reads of a new SQL text race (the leaked statement makes close() fail).
      await runDueWork(f.p);
      await f.p.clock.setOffset(Date.parse('2031-04-01T00:00:00.000Z'));
      const [a, b] = await Promise.all([runDueWork(f.p), runDueWork(f.p)]);
      assert.equal(a['subscription-billing']! + b['subscription-billing']!, 15);
      for (const id of ids) {
        assert.equal((await f.charges(id)).length, 4, 'Jan 1 at creation + Feb, Mar, Apr');
      }
    } finally {
      await f.p.close();
    }
  });

  it('two processes (two connections to one file) billing at once charge once', async () => {
    const f = await fixture(T0);
    const other = await frozenPlatform(T0, f.p.db.location);
    try {
      const planId = await f.plan({ amount: 1000, billing_cycle: 'daily' });
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await f.subscribe(planId)).id);
      await f.p.clock.setOffset(Date.parse('2031-01-31T00:00:00.000Z'));
      await other.clock.refresh();
      const [a, b] = await Promise.all([billDueSubscriptions(f.p, f.p.clock.now()), billDueSubscriptions(other, other.clock.now())]);
      assert.equal(a + b, 20 * 30);
      const n = await f.p.db.get<{ n: number; d: number }>(
        `SELECT COUNT(*) AS n, COUNT(DISTINCT subscription_id || ':' || period) AS d FROM subscription_charges WHERE subscription_id IN (${ids.map(() => '?').join(',')})`,
        ids,
      );
      assert.deepEqual(n, { n: 20 * 31, d: 20 * 31 });
      const txs = await f.p.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM transactions WHERE plan_id = ?`, [planId]);
      assert.equal(txs!.n, 20 * 31);
    } finally {
      await other.close();
      await f.p.close();
    }
  });

  it('the ledger refuses a second record of the same attempt', async () => {
    const f = await fixture(T0);
    try {
      const planId = await f.plan({ amount: 1000, billing_cycle: 'monthly' });
      const s = await f.subscribe(planId);
      const [first] = await f.ledger(s.id);
      const again = await f.p.db.write((tx) => subscriptionChargeRepo.claim(tx, { ...first!, id: 'x', kind: 'regular' } as never));
      assert.equal(again, false);
    } finally {
      await f.p.close();
    }
  });

  it('bills more subscriptions than one batch, with progress', async () => {
    const f = await fixture(T0);
    try {
      const planId = await f.plan({ amount: 500, billing_cycle: 'monthly' });
      const card = await f.card();
      const count = BILLING_BATCH_SIZE + 37;
      await Promise.all(Array.from({ length: count }, () => f.subscribe(planId, { card_id: card })));
      const seen: Array<[number, number]> = [];
      await f.p.clock.setOffset(Date.parse('2031-02-01T00:00:00.000Z'));
      const attempts = await billDueSubscriptions(f.p, f.p.clock.now(), (done, total) => seen.push([done, total]));
      assert.equal(attempts, count);
      // Progress in charge attempts: from 0 of all to all, never backwards, in several chunks.
      assert.deepEqual(seen[0], [0, count]);
      assert.deepEqual(seen.at(-1), [count, count]);
      assert.ok(seen.length > 2, 'more than one chunk');
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]![0] >= seen[i - 1]![0]);
      const billed = await f.p.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM subscriptions WHERE plan_id = ? AND charge_count = 2`, [planId]);
      assert.equal(billed!.n, count);
    } finally {
      await f.p.close();
    }
  });
});

describe('cancel', () => {
  it('a canceled subscription is never billed again', async () => {
    const f = await fixture('2031-01-01T00:00:00.000Z');
    try {
      const planId = await f.plan({ amount: 1000, billing_cycle: 'monthly' });
      const s = await f.subscribe(planId);
      const c = await executeRaw(cancelSubscription, f.p, contextFor(f.p, f.groupId), { linked_account_id: f.accountId, subscription_id: s.id });
      assert.deepEqual([c.status, c.next_bill_date, c.canceled_at], ['canceled', null, '2031-01-01T00:00:00.000Z']);
      await f.advanceDays(100);
      assert.equal((await f.charges(s.id)).length, 1);
      await assert.rejects(executeRaw(cancelSubscription, f.p, contextFor(f.p, f.groupId), { linked_account_id: f.accountId, subscription_id: s.id }), /already canceled/);
      await assert.rejects(executeRaw(updateSubscription, f.p, contextFor(f.p, f.groupId), withParams(updateBody(c), { linked_account_id: f.accountId, subscription_id: s.id })), /only an active subscription/);
    } finally {
      await f.p.close();
    }
  });
});
