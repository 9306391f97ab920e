// Flags and output shared by the plan and subscription commands. Bodies built from flags
// go through the same request schemas as the API (the services validate them).
import { Flags } from '@oclif/core';
import { AppError } from '../../errors.js';
import { formatMoney, parseMoney } from '../../domain/money.js';
import { BILLING_CYCLES, PRORATION_BEHAVIORS, type Plan, type Subscription } from '../../domain/recurring.js';
import { listLinkedAccounts } from '../../services/groups/groups.js';
import type { Platform } from '../../services/platform.js';
import { keyValues, when } from '../../render/table.js';

const usage = (message: string) => new AppError(400, 'validation_error', message);

export const scopeFlags = {
  group: Flags.string({ description: 'group id', required: true }),
  'linked-account': Flags.string({ description: 'linked account id [default: the group\'s first]' }),
};

export const pagingFlags = {
  limit: Flags.integer({ description: 'page size (1 to 1000)', default: 50 }),
  offset: Flags.integer({ description: 'items to skip', default: 0 }),
};

export const fileFlag = { file: Flags.string({ description: 'full request body as JSON (a path, or - for stdin)' }) };

/** An amount from --NAME or --NAME-cents; undefined when neither was given. */
export function amountFrom(flags: Record<string, unknown>, name: string): number | undefined {
  const money = flags[name] as string | undefined;
  const cents = flags[`${name}-cents`] as number | undefined;
  if (money !== undefined && cents !== undefined) throw usage(`give --${name} or --${name}-cents, not both`);
  if (cents !== undefined) return cents;
  if (money === undefined) return undefined;
  try {
    return parseMoney(money);
  } catch (e) {
    throw usage(`--${name}: ${(e as Error).message}`);
  }
}

export const prorationFlag = Flags.string({ description: 'proration behavior', options: [...PRORATION_BEHAVIORS] });

const money = (what: string) => Flags.string({ description: `${what} as money (12.34)` });
const cents = (what: string) => Flags.integer({ description: `${what} in cents` });

/** The plan fields of Create Plan and Update plan. */
export const planFlags = {
  name: Flags.string({ description: 'plan name, shown to end-users' }),
  amount: money('amount of each cycle (tax and shipping included)'),
  'amount-cents': cents('amount of each cycle'),
  'billing-cycle': Flags.string({ description: 'billing cycle', options: [...BILLING_CYCLES] }),
  'billing-factor': Flags.integer({ description: 'daily only: the interval in days' }),
  duration: Flags.integer({ description: 'number of cycles; 0 = endless' }),
  'initial-amount': money('first regular charge'),
  'initial-amount-cents': cents('first regular charge'),
  tax: money('tax included in the amount'),
  'tax-cents': cents('tax included in the amount'),
  shipping: money('shipping included in the amount'),
  'shipping-cents': cents('shipping included in the amount'),
  'trial-days': Flags.integer({ description: 'trial_period_days' }),
  'trial-amount': money('charge at the start of the trial'),
  'trial-amount-cents': cents('charge at the start of the trial'),
  'max-retry-count': Flags.integer({ description: 'retries of a failed card charge (0 to 5)' }),
  'proration-behavior': prorationFlag,
  description: Flags.string({ description: 'shown to end-users' }),
};

/** The plan body members given as flags (undefined members dropped). */
export function planBodyFromFlags(flags: Record<string, unknown>): Record<string, unknown> {
  return defined({
    name: flags.name,
    amount: amountFrom(flags, 'amount'),
    billing_cycle: flags['billing-cycle'],
    billing_factor: flags['billing-factor'],
    duration: flags.duration,
    initial_amount: amountFrom(flags, 'initial-amount'),
    tax: amountFrom(flags, 'tax'),
    shipping_amount: amountFrom(flags, 'shipping'),
    trial_period_days: flags['trial-days'],
    trial_amount: amountFrom(flags, 'trial-amount'),
    max_retry_count: flags['max-retry-count'],
    proration_behavior: flags['proration-behavior'],
    description: flags.description,
  });
}

/** The subscription amounts given as flags. */
export const subscriptionAmountFlags = {
  amount: money('amount of each cycle (tax and shipping included)'),
  'amount-cents': cents('amount of each cycle'),
  tax: money('tax included in the amount'),
  'tax-cents': cents('tax included in the amount'),
  shipping: money('shipping included in the amount'),
  'shipping-cents': cents('shipping included in the amount'),
  'initial-amount': money('first regular charge'),
  'initial-amount-cents': cents('first regular charge'),
};

export function subscriptionAmountsFromFlags(flags: Record<string, unknown>): Record<string, number> {
  return defined({
    requested_amount: amountFrom(flags, 'amount'),
    included_tax_amount: amountFrom(flags, 'tax'),
    included_shipping_amount: amountFrom(flags, 'shipping'),
    initial_amount: amountFrom(flags, 'initial-amount'),
  }) as Record<string, number>;
}

/** "1,3,5" → retry_policy {steps: [{delay_days: 1}, …]}. */
export function retryPolicyFrom(text: string | undefined): { steps: Array<{ delay_days: number }> } | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((s) => s.trim());
  if (!parts.every((s) => /^\d+$/.test(s))) throw usage(`--retry-delays "${text}" must be whole days separated by commas, e.g. 1,3,5`);
  return { steps: parts.map((s) => ({ delay_days: Number(s) })) };
}

/** Drop undefined members so the request schema reports missing fields by name. */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The --linked-account flag, or the group's first linked account. */
export async function linkedAccountOrDefault(p: Platform, groupId: string, flag: string | undefined): Promise<string> {
  if (flag) return flag;
  const [first] = await listLinkedAccounts(p, groupId);
  if (!first) throw usage(`group ${groupId} has no linked account: create one with \`payctl linked-account create\`, or pass --linked-account`);
  return first.id;
}

export function describePlan(plan: Plan): string {
  const every = plan.billing_factor > 1 ? `every ${plan.billing_factor} days` : plan.billing_cycle;
  return keyValues([
    ['id', plan.id],
    ['name', plan.name],
    ['amount', `${formatMoney(plan.amount)} ${every} (tax ${formatMoney(plan.tax)}, shipping ${formatMoney(plan.shipping_amount)} included)`],
    ['initial amount', plan.initial_amount === null ? '' : formatMoney(plan.initial_amount)],
    ['trial', plan.trial_period_days ? `${plan.trial_period_days} days${plan.trial_amount ? ` for ${formatMoney(plan.trial_amount)}` : ' free'}` : ''],
    ['duration', plan.duration === 0 ? 'endless' : `${plan.duration} cycles`],
    ['retries', `${plan.max_retry_count}${plan.retry_policy ? ` after ${plan.retry_policy.steps.map((s) => s.delay_days).join(', ')} days` : ''}`],
    ['proration', plan.proration_behavior],
    ['description', plan.description],
  ]);
}

export function describeSubscription(s: Subscription): string {
  const method = s.payment_details.card
    ? `${s.payment_details.card.brand} ${s.payment_details.card.first_six}…${s.payment_details.card.last_four}`
    : s.payment_details.bank_account
      ? `bank account …${s.payment_details.bank_account.last_four}`
      : s.payment_method;
  return keyValues([
    ['id', s.id],
    ['plan', s.plan_id],
    ['status', s.status],
    ['amount', `${formatMoney(s.amounts.amount)} ${s.billing_factor > 1 ? `every ${s.billing_factor} days` : s.billing_cycle}`],
    ['next bill date', s.next_bill_date ? when(s.next_bill_date) : '—'],
    ['charges', `${s.metadata.charge_count}${s.duration ? ` of ${s.duration}` : ''}`],
    ['failed attempts', s.metadata.failure_attempt_count],
    ['retry count', `${s.retry_count} of ${s.metadata.max_retry_count}`],
    ['proration', `${s.proration_result}${s.pending_proration_amount ? ` (${formatMoney(s.pending_proration_amount)} on the next charge)` : ''}`],
    ['paid with', method],
  ]);
}
