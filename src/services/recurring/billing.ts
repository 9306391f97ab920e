// The billing engine: charges every due subscription on the platform clock, retries
// failed card charges, completes finite subscriptions, and carries out prorations.
//
// Idempotency: a subscription is billed only inside a write transaction that reads it
// there (so two runs, in one process or two, see each other's work), every attempt is
// first claimed in the ledger (UNIQUE subscription, kind, period, attempt), and the
// subscription row is saved compare-and-set on its version. The charge, the ledger row
// and the subscription's new state commit together or not at all (kill -9 safe).
//
// Time: an attempt happens at its due time (next_bill_date), not at the time the engine
// runs, so a clock advance over a year bills the 12 monthly cycles and the retries of a
// failing one exactly as a server running all year would have. The transaction itself is
// stamped with the platform clock.
import type { Platform } from '../platform.js';
import type { Tx } from '../../store/db.js';
import type { Progress } from '../clock/scheduler.js';
import { chargeInTx, type PaymentSource } from '../transactions/charge.js';
import {
  subscriptionChargeRepo,
  subscriptionRepo,
  type SubscriptionChargeRow,
  type SubscriptionRow,
} from '../../store/repositories/subscriptions.js';
import type { CustomerBankAccountRow, CustomerCardRow } from '../../store/repositories/customers.js';
import type { TokenRow } from '../../store/repositories/tokens.js';
import type { Address } from '../../domain/address.js';
import {
  addCycles,
  addDays,
  chargeAmountFor,
  prorate,
  prorationPlan,
  retryDelayDays,
  type BillingCycle,
  type ProrationBehavior,
  type RetrySettings,
} from '../../domain/recurring.js';
import { newId } from '../../lib/ids.js';
import type { PendingEvent } from '../unit-of-work.js';
import { appendClockEvent, chargeEvent, event } from '../events/events.js';
import { toSubscription } from './subscriptions.js';
import type { GroupScope } from '../../store/repositories/group-clocks.js';

/** Subscriptions per write transaction in a billing run. */
export const BILLING_BATCH_SIZE = 500;

export interface PaymentMethods {
  cards: Map<string, CustomerCardRow>;
  banks: Map<string, CustomerBankAccountRow>;
}

// ---------------------------------------------------------------------------
// Calendar of one subscription

/** The regular bill date after `charge_count` charges; null once a finite duration is fully billed. */
export function scheduledBillDate(row: Pick<SubscriptionRow, 'duration' | 'charge_count' | 'anchor_at' | 'anchor_count' | 'billing_cycle' | 'billing_factor'>): string | null {
  if (row.duration > 0 && row.charge_count >= row.duration) return null;
  return addCycles(row.anchor_at, row.billing_cycle as BillingCycle, row.billing_factor, row.charge_count - row.anchor_count);
}

/** Bounds of regular period `index` (0-based over the whole subscription) under the current anchor. */
export function periodBounds(row: SubscriptionRow, index: number): { start: string; end: string } {
  const n = index - row.anchor_count;
  const cycle = row.billing_cycle as BillingCycle;
  return { start: addCycles(row.anchor_at, cycle, row.billing_factor, n), end: addCycles(row.anchor_at, cycle, row.billing_factor, n + 1) };
}

/**
 * Move the anchor so that a new cycle/factor starts at the end of the period already
 * paid for (or stays at the start when nothing regular was billed yet).
 */
export function reanchor(row: SubscriptionRow, cycle: BillingCycle, factor: number): void {
  if (row.billing_cycle === cycle && row.billing_factor === factor) return;
  if (row.charge_count > 0) {
    row.anchor_at = row.billing_period_end;
    row.anchor_count = row.charge_count;
  }
  row.billing_cycle = cycle;
  row.billing_factor = factor;
}

/**
 * After a change of duration or schedule: complete a finite subscription that has billed
 * all its cycles, otherwise put the next bill date on the (new) calendar — unless a retry
 * or the trial charge is what comes next.
 */
export function reschedule(row: SubscriptionRow): void {
  if (row.status !== 'active') return;
  if (row.duration > 0 && row.charge_count >= row.duration) {
    row.status = 'completed';
    row.next_bill_date = null;
    return;
  }
  if (row.retry_count > 0) return;
  if ((row.trial_period_days ?? 0) > 0 && row.trial_done === 0) return;
  row.next_bill_date = scheduledBillDate(row);
}

export function retrySettings(row: SubscriptionRow): RetrySettings {
  return {
    max_retry_count: row.max_retry_count,
    retry_policy: row.retry_policy ? (JSON.parse(row.retry_policy) as RetrySettings['retry_policy']) : null,
    payment_method: row.payment_method,
  };
}

function paymentSource(row: SubscriptionRow, methods: PaymentMethods): PaymentSource {
  if (row.card_id) {
    const card = methods.cards.get(row.card_id);
    if (card) return { kind: 'card', card };
  } else if (row.bank_account_id) {
    const account = methods.banks.get(row.bank_account_id);
    if (account) return { kind: 'bank', account };
  } else if (row.token_snapshot) {
    return { kind: 'token', token: JSON.parse(row.token_snapshot) as TokenRow };
  }
  throw new Error(`subscription ${row.id} has no payment method on file`);
}

// ---------------------------------------------------------------------------
// One subscription

/**
 * Bill every cycle (and retry) of `row` due at or before `until`, inside `tx`. `row` must
 * have been read inside `tx`; it is updated in place and saved once. Returns the number
 * of attempts made (a free cycle counts as one).
 */
export async function billSubscription(
  tx: Tx,
  p: Platform,
  row: SubscriptionRow,
  until: string,
  methods: PaymentMethods,
  /** A request's unit of work takes the events; without one, they are the clock's. */
  emit?: (e: PendingEvent) => void,
): Promise<number> {
  let attempts = 0;
  let settings: RetrySettings | undefined;
  const billing = JSON.parse(row.billing_address) as Address;
  const now = p.clock.nowIso();
  const sink = emit ?? ((e: PendingEvent) => appendClockEvent(tx, row.group_id, now, e));
  const happened: Array<'subscription.charged' | 'subscription.payment_failed' | 'subscription.completed'> = [];
  while (row.status === 'active' && row.next_bill_date !== null && row.next_bill_date <= until) {
    const dueAt = row.next_bill_date;
    const trial = (row.trial_period_days ?? 0) > 0 && row.trial_done === 0;
    const charge = chargeAmountFor({
      chargeCount: row.charge_count,
      inTrial: trial,
      trialPeriodDays: row.trial_period_days,
      trialAmount: row.trial_amount,
      initialAmount: row.initial_amount,
      amount: row.amount,
      tax: row.tax_amount,
      shipping: row.shipping_amount,
      pendingProration: row.pending_proration,
    });
    const ledger: SubscriptionChargeRow = {
      id: newId(),
      subscription_id: row.id,
      kind: trial ? 'trial' : 'regular',
      period: trial ? -1 : row.charge_count,
      attempt: row.retry_count,
      amount: charge.total,
      due_at: dueAt,
      transaction_id: null,
      outcome: 'pending',
      created_at: now,
    };
    // Already recorded: this attempt was made by another run; never charge it again.
    if (!(await subscriptionChargeRepo.claim(tx, ledger))) break;
    attempts++;

    let approved = true;
    if (charge.total > 0) {
      const t = await chargeInTx(tx, p, p.clock, {
        groupId: row.group_id,
        processorId: row.processor_id,
        type: 'sale',
        source: 'recurring',
        payment: paymentSource(row, methods),
        amounts: { requested: charge.total, tax: charge.tax, shipping: charge.shipping },
        billingAddress: billing,
        description: row.description,
        customerId: row.customer_id,
        links: { planId: row.plan_id, subscriptionId: row.id, linkedAccountId: row.linked_account_id },
      });
      approved = t.status !== 'declined';
      await subscriptionChargeRepo.settle(tx, ledger.id, approved ? 'approved' : 'declined', t.id);
      sink(chargeEvent(t));
      happened.push(approved ? 'subscription.charged' : 'subscription.payment_failed');
    } else {
      await subscriptionChargeRepo.settle(tx, ledger.id, 'free', null);
    }

    if (approved) {
      row.retry_count = 0;
      if (trial) {
        row.trial_done = 1;
        row.billing_period_start = row.start_at;
        row.billing_period_end = row.anchor_at;
      } else {
        const period = periodBounds(row, row.charge_count);
        row.charge_count += 1;
        row.billing_period_start = period.start;
        row.billing_period_end = period.end;
        if (row.pending_proration !== 0) {
          row.pending_proration = charge.carriedProration;
          if (row.pending_proration === 0) row.proration_result = 'applied';
        }
      }
      row.next_bill_date = scheduledBillDate(row);
      if (row.next_bill_date === null) {
        row.status = 'completed';
        happened.push('subscription.completed');
      }
    } else {
      settings ??= retrySettings(row);
      row.failure_attempt_count += 1;
      const delay = retryDelayDays(settings, row.retry_count);
      if (delay === null) {
        row.status = 'failed';
        row.next_bill_date = null;
      } else {
        row.retry_count += 1;
        row.next_bill_date = addDays(dueAt, delay);
      }
    }
  }
  if (attempts > 0) {
    row.updated_at = now;
    if ((await subscriptionRepo.save(tx, row)) !== 1) throw new Error(`subscription ${row.id} changed while it was being billed`);
    row.version += 1;
    // The subscription as saved after this run, on each of its events.
    if (happened.length > 0) {
      const subscription = toSubscription(row, methods);
      for (const type of happened) sink(event(type, subscription));
    }
  }
  return attempts;
}

// ---------------------------------------------------------------------------
// Proration

/**
 * Switch `row` to `newAmount` now, prorating the difference over the period already paid
 * for (the last billed regular period) with `behavior`:
 * none = nothing; create_prorations = add the difference (or credit) to the next charge;
 * immediate_action = charge a positive difference at once (a credit goes to the next
 * charge). During a trial or before the first regular charge nothing is prorated: the
 * new amount simply applies to the first regular charge. `row` is updated in place (the
 * caller saves it); an immediate charge is made inside `tx`.
 */
export async function applyAmountChange(
  tx: Tx,
  p: Platform,
  row: SubscriptionRow,
  newAmount: number,
  behavior: ProrationBehavior,
  methods: PaymentMethods,
): Promise<{ diff: number; transactionId: string | null }> {
  const now = p.clock.nowIso();
  const oldAmount = row.amount;
  row.amount = newAmount;
  const paidFor = row.status === 'active' && row.charge_count > 0;
  const diff = paidFor
    ? prorate({ oldAmount, newAmount, periodStart: row.billing_period_start, periodEnd: row.billing_period_end, at: now })
    : 0;
  const action = prorationPlan(behavior, diff);
  if (action.action === 'none') {
    row.proration_result = row.pending_proration !== 0 ? 'pending' : 'none';
    return { diff, transactionId: null };
  }
  if (action.action === 'add_to_next_charge') {
    row.pending_proration += action.amount;
    row.proration_result = row.pending_proration !== 0 ? 'pending' : 'none';
    return { diff, transactionId: null };
  }
  const period = row.charge_count - 1;
  const ledger: SubscriptionChargeRow = {
    id: newId(),
    subscription_id: row.id,
    kind: 'proration',
    period,
    attempt: await subscriptionChargeRepo.nextAttempt(tx, row.id, 'proration', period),
    amount: action.amount,
    due_at: now,
    transaction_id: null,
    outcome: 'pending',
    created_at: now,
  };
  if (!(await subscriptionChargeRepo.claim(tx, ledger))) throw new Error(`proration of subscription ${row.id} was recorded twice`);
  const t = await chargeInTx(tx, p, p.clock, {
    groupId: row.group_id,
    processorId: row.processor_id,
    type: 'sale',
    source: 'recurring',
    payment: paymentSource(row, methods),
    amounts: { requested: action.amount },
    billingAddress: JSON.parse(row.billing_address) as Address,
    description: `${row.description || 'Subscription'} (proration)`,
    customerId: row.customer_id,
    links: { planId: row.plan_id, subscriptionId: row.id, linkedAccountId: row.linked_account_id },
  });
  const approved = t.status !== 'declined';
  await subscriptionChargeRepo.settle(tx, ledger.id, approved ? 'approved' : 'declined', t.id);
  row.proration_result = approved ? 'applied' : 'failed';
  return { diff, transactionId: t.id };
}

/** The terms a subscription takes from its plan (a plan update) or from its own update. */
export interface SubscriptionTerms {
  billing_cycle: BillingCycle;
  billing_factor: number;
  amount: number;
  tax: number;
  shipping: number;
  initial_amount: number | null;
  duration: number;
  max_retry_count: number;
  retry_policy: string | null;
}

/**
 * Give a subscription new terms, in the one order both updates need: the calendar
 * re-anchored, amounts and retry terms copied, an amount change prorated (`behavior`),
 * the next charge rescheduled. `row` is updated in place (the caller saves it).
 */
export async function applyTerms(tx: Tx, p: Platform, row: SubscriptionRow, terms: SubscriptionTerms, behavior: ProrationBehavior, methods: PaymentMethods): Promise<void> {
  reanchor(row, terms.billing_cycle, terms.billing_factor);
  row.tax_amount = terms.tax;
  row.shipping_amount = terms.shipping;
  row.initial_amount = terms.initial_amount;
  row.duration = terms.duration;
  row.max_retry_count = terms.max_retry_count;
  row.retry_policy = terms.retry_policy;
  await applyAmountChange(tx, p, row, terms.amount, behavior, methods);
  reschedule(row);
}

// ---------------------------------------------------------------------------
// The scheduler job

/**
 * Bill every active subscription (of the groups in `scope`) due at `until`, BILLING_BATCH_SIZE subscriptions per
 * write transaction, walking the due index in (next_bill_date, id) order. A billed
 * subscription leaves the due range (its next bill date passes `until`, or it stops
 * being active), so memory stays at one batch however many are due; the keyset cursor
 * only guarantees progress. Returns the number of charge attempts.
 */
export async function billDueSubscriptions(p: Platform, until: Date, progress?: Progress, scope?: GroupScope): Promise<number> {
  const untilIso = until.toISOString();
  const total = await subscriptionRepo.countDue(p.db, untilIso, scope);
  if (total === 0) return 0;
  let cursor: { at: string; id: string } | null = null;
  let done = 0;
  let attempts = 0;
  progress?.(0, total, 'Billing subscriptions');
  for (;;) {
    const after: { at: string; id: string } | null = cursor;
    const batch = await p.db.write(async (tx) => {
      const rows = await subscriptionRepo.dueBatch(tx, untilIso, after, BILLING_BATCH_SIZE, scope);
      if (rows.length === 0) return null;
      const last = rows.at(-1)!;
      const next = { at: last.next_bill_date!, id: last.id };
      const methods = await subscriptionRepo.paymentMethods(tx, rows);
      let n = 0;
      for (const row of rows) n += await billSubscription(tx, p, row, untilIso, methods);
      return { cursor: next, subscriptions: rows.length, attempts: n };
    });
    if (!batch) break;
    cursor = batch.cursor;
    done += batch.subscriptions;
    attempts += batch.attempts;
    progress?.(Math.min(done, total), total, 'Billing subscriptions');
  }
  if (done < total) progress?.(total, total, 'Billing subscriptions');
  return attempts;
}
