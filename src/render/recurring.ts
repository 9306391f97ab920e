// Human output of plans and subscriptions.
import type { Plan, Subscription } from '../domain/recurring.js';
import { statusWord } from './colour.js';
import { keyValues, table } from './table.js';
import { dateTime, money, paymentMethodText } from './format.js';

/** "monthly", or "every 7 days" for a daily cycle with a factor. */
const every = (x: { billing_cycle: string; billing_factor: number }) => (x.billing_factor > 1 ? `every ${x.billing_factor} days` : x.billing_cycle);

export function describePlan(plan: Plan): string {
  return keyValues([
    ['id', plan.id],
    ['name', plan.name],
    ['amount', `${money(plan.amount)} ${every(plan)} (tax ${money(plan.tax)}, shipping ${money(plan.shipping_amount)} included)`],
    ['initial amount', plan.initial_amount === null ? '' : money(plan.initial_amount)],
    ['trial', plan.trial_period_days ? `${plan.trial_period_days} days${plan.trial_amount ? ` for ${money(plan.trial_amount)}` : ' free'}` : ''],
    ['duration', plan.duration === 0 ? 'endless' : `${plan.duration} cycles`],
    ['retries', `${plan.max_retry_count}${plan.retry_policy ? ` after ${plan.retry_policy.steps.map((s) => s.delay_days).join(', ')} days` : ''}`],
    ['proration', plan.proration_behavior],
    ['description', plan.description],
  ]);
}

export function planTable(items: Plan[]): string {
  return table(
    ['id', { title: 'name', truncate: 12 }, 'amount', 'cycle', 'duration', 'trial days', 'retries'],
    items.map((x) => [x.id, x.name, money(x.amount), every(x), x.duration === 0 ? 'endless' : x.duration, x.trial_period_days ?? '', x.max_retry_count]),
  );
}

export function describeSubscription(s: Subscription): string {
  return keyValues([
    ['id', s.id],
    ['plan', s.plan_id],
    ['status', statusWord(s.status)],
    ['amount', `${money(s.amounts.amount)} ${every(s)}`],
    ['next bill date', s.next_bill_date ? dateTime(s.next_bill_date) : '—'],
    ['charges', `${s.metadata.charge_count}${s.duration ? ` of ${s.duration}` : ''}`],
    ['failed attempts', s.metadata.failure_attempt_count],
    ['retry count', `${s.retry_count} of ${s.metadata.max_retry_count}`],
    ['proration', `${s.proration_result}${s.pending_proration_amount ? ` (${money(s.pending_proration_amount)} on the next charge)` : ''}`],
    ['paid with', paymentMethodText(s.payment_details, s.payment_method)],
  ]);
}

export function subscriptionTable(items: Subscription[]): string {
  return table(
    ['id', { title: 'plan', priority: -5.5 }, 'status', 'amount', 'cycle', 'next bill date', 'charges', 'failed attempts'],
    items.map((x) => [
      x.id,
      x.plan_id,
      statusWord(x.status),
      money(x.amounts.amount),
      every(x),
      x.next_bill_date ? dateTime(x.next_bill_date) : '—',
      x.metadata.charge_count,
      x.metadata.failure_attempt_count,
    ]),
  );
}
