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
import { performance } from 'node:perf_hooks';
import type { Platform } from '../platform.js';
import type { Tx } from '../../store/interfaces/db.js';
import type { Progress } from '../clock/chunks.js';
import { chargeInTx, type PaymentSource } from '../transactions/charge.js';
import { subscriptionChargeFault } from '../faults/injector.js';
import type { PaymentMethods } from '../../store/interfaces/recurring.js';
import {
  afterAttempt,
  chargeAmountFor,
  changeAmount,
  cyclesElapsed,
  reschedule,
  withTerms,
  type ProrationBehavior,
  type SubscriptionTerms,
} from '../../domain/recurring.js';
import type { SubscriptionChargeEntity, SubscriptionEntity } from '../../domain/recurring/entities.js';
import { newId } from '../../lib/ids.js';
import type { PendingEvent } from '../events/events.js';
import { appendClockEvent, chargeEvent, event } from '../events/events.js';
import { toSubscription } from './mapper.js';
import type { GroupScope } from '../../store/interfaces/scope.js';
import { CHUNK_WRITE, chunkDeadline, Pacer } from '../clock/chunks.js';

/** Subscriptions read per page (plan updates, estimates). */
export const BILLING_BATCH_SIZE = 500;
/** Due subscriptions read per billing chunk (the chunk's time budget usually ends it first). */
const CHUNK_ROWS = 100;

export type { PaymentMethods } from '../../store/interfaces/recurring.js';

function paymentSource(row: SubscriptionEntity, methods: PaymentMethods): PaymentSource {
  if (row.card_id) {
    const card = methods.cards.get(row.card_id);
    if (card) return { kind: 'card', card };
  } else if (row.bank_account_id) {
    const account = methods.banks.get(row.bank_account_id);
    if (account) return { kind: 'bank', account };
  } else if (row.token_snapshot) {
    return { kind: 'token', token: row.token_snapshot };
  }
  throw new Error(`subscription ${row.id} has no payment method on file`);
}

// ---------------------------------------------------------------------------
// One subscription

/**
 * Bill every cycle (and retry) of `subscription` due at or before `until`, inside `tx`.
 * It must have been read inside `tx`; what each attempt does to it is `afterAttempt`'s,
 * and the result is saved once. Returns the number of attempts made (a free cycle counts
 * as one) and the subscription as saved.
 */
export async function billSubscription(
  tx: Tx,
  p: Platform,
  subscription: SubscriptionEntity,
  until: string,
  methods: PaymentMethods,
  /** A request's unit of work takes the events; without one, they are the clock's. */
  emit?: (e: PendingEvent) => void,
  /** Stop after the attempt that passes this (performance.now() ms): the rest is the next chunk's. */
  deadline = Infinity,
): Promise<{ attempts: number; subscription: SubscriptionEntity; stopped: boolean }> {
  let row = subscription;
  let attempts = 0;
  let stopped = false;
  const now = p.clock.nowIso();
  const sink = emit ?? ((e: PendingEvent) => appendClockEvent(tx, row.group_id, now, e));
  const happened: Array<'subscription.charged' | 'subscription.payment_failed' | 'subscription.completed'> = [];
  while (row.status === 'active' && row.next_bill_date !== null && row.next_bill_date <= until) {
    if (attempts > 0 && performance.now() >= deadline) {
      stopped = true;
      break;
    }
    const dueAt = row.next_bill_date;
    const trial = (row.trial_period_days ?? 0) > 0 && !row.trial_done;
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
    const ledger: SubscriptionChargeEntity = {
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
    if (!(await tx.repos.subscriptionCharges.claim(tx, ledger))) break;
    attempts++;

    let approved = true;
    if (charge.total > 0) {
      const t = await chargeInTx(tx, p, p.clock, {
        forcedOutcome: await subscriptionChargeFault(tx, p.db, row.group_id, Date.parse(dueAt)),
        groupId: row.group_id,
        processorId: row.processor_id,
        type: 'sale',
        source: 'recurring',
        payment: paymentSource(row, methods),
        amounts: { requested: charge.total, tax: charge.tax, shipping: charge.shipping },
        billingAddress: row.billing_address,
        description: row.description,
        customerId: row.customer_id,
        links: { planId: row.plan_id, subscriptionId: row.id, linkedAccountId: row.linked_account_id },
      });
      approved = t.status !== 'declined';
      await tx.repos.subscriptionCharges.settle(tx, ledger.id, approved ? 'approved' : 'declined', t.id);
      sink(chargeEvent(t));
      happened.push(approved ? 'subscription.charged' : 'subscription.payment_failed');
    } else {
      await tx.repos.subscriptionCharges.settle(tx, ledger.id, 'free', null);
    }

    row = afterAttempt(row, { trial, approved, due_at: dueAt, carried_proration: charge.carriedProration });
    if (row.status === 'completed') happened.push('subscription.completed');
  }
  if (attempts > 0) {
    row = { ...row, updated_at: now };
    if ((await tx.repos.subscriptions.save(tx, row)) !== 1) throw new Error(`subscription ${row.id} changed while it was being billed`);
    row.version += 1;
    // The subscription as saved after this run, on each of its events.
    if (happened.length > 0) {
      const saved = toSubscription(row, methods);
      for (const type of happened) sink(event(type, saved));
    }
  }
  return { attempts, subscription: row, stopped };
}

// ---------------------------------------------------------------------------
// Proration

/**
 * A new amount from now (`changeAmount`: the difference prorated with `behavior`); an
 * immediate proration is charged inside `tx`, recorded in the ledger and its transaction
 * event handed to `emit`. Returns the subscription to save.
 */
async function applyAmountChange(
  tx: Tx,
  p: Platform,
  subscription: SubscriptionEntity,
  newAmount: number,
  behavior: ProrationBehavior,
  methods: PaymentMethods,
  emit: (e: PendingEvent) => void,
  amountField?: string,
): Promise<SubscriptionEntity> {
  const now = p.clock.nowIso();
  const change = changeAmount(subscription, newAmount, behavior, now, amountField);
  const row = change.subscription;
  if (change.charge_now === undefined) return row;
  const period = row.charge_count - 1;
  const ledger: SubscriptionChargeEntity = {
    id: newId(),
    subscription_id: row.id,
    kind: 'proration',
    period,
    attempt: await tx.repos.subscriptionCharges.nextAttempt(tx, row.id, 'proration', period),
    amount: change.charge_now,
    due_at: now,
    transaction_id: null,
    outcome: 'pending',
    created_at: now,
  };
  if (!(await tx.repos.subscriptionCharges.claim(tx, ledger))) throw new Error(`proration of subscription ${row.id} was recorded twice`);
  const t = await chargeInTx(tx, p, p.clock, {
    forcedOutcome: await subscriptionChargeFault(tx, p.db, row.group_id, Date.parse(now)),
    groupId: row.group_id,
    processorId: row.processor_id,
    type: 'sale',
    source: 'recurring',
    payment: paymentSource(row, methods),
    amounts: { requested: change.charge_now },
    billingAddress: row.billing_address,
    description: `${row.description || 'Subscription'} (proration)`,
    customerId: row.customer_id,
    links: { planId: row.plan_id, subscriptionId: row.id, linkedAccountId: row.linked_account_id },
  });
  const approved = t.status !== 'declined';
  await tx.repos.subscriptionCharges.settle(tx, ledger.id, approved ? 'approved' : 'declined', t.id);
  emit(chargeEvent(t));
  return { ...row, proration_result: approved ? 'applied' : 'failed' };
}

/**
 * Give a subscription new terms, in the one order both updates need: the calendar
 * re-anchored, amounts and retry terms copied (`withTerms`), an amount change prorated
 * (`behavior`; an immediate charge is made inside `tx`, its event handed to `emit`), the
 * next charge rescheduled. Returns the subscription to save.
 */
export async function applyTerms(
  tx: Tx,
  p: Platform,
  subscription: SubscriptionEntity,
  terms: SubscriptionTerms,
  behavior: ProrationBehavior,
  methods: PaymentMethods,
  emit: (e: PendingEvent) => void,
): Promise<SubscriptionEntity> {
  const next = await applyAmountChange(tx, p, withTerms(subscription, terms), terms.amount, behavior, methods, emit, terms.amount_field);
  return reschedule(next);
}

// ---------------------------------------------------------------------------
// The scheduler job

/** Charge attempts a due subscription still has before `until` (an estimate: retries not counted). */
function attemptsDue(row: SubscriptionEntity, until: string): number {
  if (row.next_bill_date === null || row.next_bill_date > until) return 0;
  const cycles = 1 + cyclesElapsed(row.next_bill_date, row.billing_cycle, row.billing_factor, until);
  return row.duration > 0 ? Math.min(cycles, Math.max(1, row.duration - row.charge_count)) : cycles;
}

/** Estimated charge attempts due by `until` in `scope` (read in pages on the reader) and the subscriptions they belong to. */
export async function estimateDueCharges(p: Platform, until: Date, scope?: GroupScope): Promise<{ subscriptions: number; charges: number }> {
  const untilIso = until.toISOString();
  let after: { at: string; id: string } | null = null;
  let subscriptions = 0;
  let charges = 0;
  for (;;) {
    const rows = await p.db.repos.subscriptions.dueBatch(p.db, untilIso, after, BILLING_BATCH_SIZE, scope);
    for (const row of rows) charges += attemptsDue(row, untilIso);
    subscriptions += rows.length;
    if (rows.length < BILLING_BATCH_SIZE) break;
    const last = rows.at(-1)!;
    after = { at: last.next_bill_date!, id: last.id };
  }
  return { subscriptions, charges };
}

/**
 * Bill every active subscription (of the groups in `scope`) due at `until`, in chunks:
 * each chunk is one write transaction of at most CHUNK_BUDGET_MS of billing (whole
 * cycles: a subscription decades behind is billed over many chunks), and the job yields
 * between chunks so that other groups' writes commit in between. It walks the due index
 * in (next_bill_date, id) order; a fully billed subscription leaves the due range, a
 * partly billed one (the chunk's last) stays in it, after the cursor, for the next
 * chunk, so memory stays at one chunk and every chunk makes progress. Progress is
 * reported in charge attempts (estimated at the start). A kill -9 loses at most the
 * chunk in flight, which never committed: the next run starts from the database.
 */
export async function billDueSubscriptions(p: Platform, until: Date, progress?: Progress, scope?: GroupScope): Promise<number> {
  const untilIso = until.toISOString();
  if ((await p.db.repos.subscriptions.dueBatch(p.db, untilIso, null, 1, scope)).length === 0) return 0;
  const total = progress ? (await estimateDueCharges(p, until, scope)).charges : 0;
  type Cursor = { at: string; id: string } | null;
  let cursor: Cursor = null;
  let attempts = 0;
  progress?.(0, total, 'Billing subscriptions');
  const pacer = new Pacer(p.db);
  for (;;) {
    const after: Cursor = cursor;
    pacer.start();
    const chunk = await p.db.write(async (tx): Promise<{ cursor: Cursor; attempts: number } | null> => {
      const deadline = chunkDeadline();
      // Claimed: another server billing the same range takes other subscriptions.
      const rows = await tx.repos.subscriptions.claimDue(tx, untilIso, after, CHUNK_ROWS, scope);
      if (rows.length === 0) return null;
      const methods = await tx.repos.subscriptions.paymentMethods(tx, rows);
      let next: Cursor = after;
      let n = 0;
      for (const row of rows) {
        const billed = await billSubscription(tx, p, row, untilIso, methods, undefined, deadline);
        n += billed.attempts;
        if (billed.stopped) break; // still due: the next chunk goes on with it
        next = { at: row.next_bill_date!, id: row.id };
        if (performance.now() >= deadline) break;
      }
      return { cursor: next, attempts: n };
    }, CHUNK_WRITE);
    if (!chunk) break;
    cursor = chunk.cursor;
    attempts += chunk.attempts;
    progress?.(Math.min(attempts, total), Math.max(total, attempts), 'Billing subscriptions');
    await pacer.rest();
  }
  if (attempts < total) progress?.(total, total, 'Billing subscriptions');
  return attempts;
}
