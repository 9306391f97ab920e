// Flags shared by the plan and subscription commands. Bodies built from flags go
// through the same request schemas as the API (the services validate them).
import { Flags } from '@oclif/core';
import { BILLING_CYCLES, PRORATION_BEHAVIORS } from '../../domain/recurring.js';
import { usage } from '../usage.js';
import { amountFrom, moneyFlags } from './money.js';
import { defined } from './body.js';
import { setsField } from './fields.js';

export const prorationFlag = Flags.string({ description: 'proration behavior', options: [...PRORATION_BEHAVIORS] });

/** The plan fields of Create Plan and Update plan. */
export const planFlags = {
  name: Flags.string({ description: 'plan name, shown to end-users' }),
  ...moneyFlags('amount', 'amount of each cycle (tax and shipping included)'),
  'billing-cycle': Flags.string({ description: 'billing cycle', options: [...BILLING_CYCLES] }),
  'billing-factor': Flags.integer({ description: 'daily only: the interval in days' }),
  duration: Flags.integer({ description: 'number of cycles; 0 = endless' }),
  ...moneyFlags('initial-amount', 'first regular charge'),
  ...moneyFlags('tax', 'tax included in the amount'),
  ...moneyFlags('shipping', 'shipping included in the amount', { field: 'shipping_amount' }),
  'trial-days': setsField(Flags.integer({ description: 'days of trial before the first regular charge' }), 'trial_period_days'),
  ...moneyFlags('trial-amount', 'charge at the start of the trial'),
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
  ...moneyFlags('amount', 'amount of each cycle (tax and shipping included)', { field: 'amounts.requested_amount' }),
  ...moneyFlags('tax', 'tax included in the amount', { field: 'amounts.included_tax_amount' }),
  ...moneyFlags('shipping', 'shipping included in the amount', { field: 'amounts.included_shipping_amount' }),
  ...moneyFlags('initial-amount', 'first regular charge', { field: 'amounts.initial_amount' }),
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
