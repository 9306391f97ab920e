// Plans, subscriptions and the charge ledger as the store keeps them and the services
// work on them: typed values (the retry policy and addresses as objects, the trial flag
// as a boolean, enums as their types), never database encodings.
import type { Address } from '../address.js';
import type { TokenEntity } from '../tokens.js';
import type { BillingCycle, ProrationBehavior, ProrationResult, SubscriptionStatus } from './constants.js';

export interface RetryPolicySteps {
  steps: Array<{ delay_days: number }>;
}

export type CustomFields = Record<string, string | number | boolean>;

/** What a subscription bills by, on its plan and (copied) on itself. */
interface BillingTerms {
  amount: number;
  initial_amount: number | null;
  trial_amount: number | null;
  trial_period_days: number | null;
  billing_cycle: BillingCycle;
  billing_factor: number;
  duration: number;
  max_retry_count: number;
  retry_policy: RetryPolicySteps | null;
}

export interface PlanEntity extends BillingTerms {
  id: string;
  group_id: string;
  linked_account_id: string;
  name: string;
  description: string;
  tax: number;
  shipping_amount: number;
  proration_behavior: ProrationBehavior;
  custom_fields: CustomFields | null;
  created_at: string;
  updated_at: string;
}

/** The token a subscription pays with, as it was when the subscription took it (tokens hold no secrets). */
export type TokenSnapshot = Omit<TokenEntity, 'used_at'>;

/** How a subscription pays: a stored card, a stored bank account, or a token's snapshot. */
export interface SubscriptionPayment {
  payment_method: 'card' | 'ach';
  card_id: string | null;
  bank_account_id: string | null;
  token_snapshot: TokenSnapshot | null;
}

export interface SubscriptionEntity extends SubscriptionPayment, BillingTerms {
  id: string;
  group_id: string;
  linked_account_id: string;
  plan_id: string;
  customer_id: string;
  processor_id: string;
  description: string;
  currency: string;
  tax_amount: number;
  shipping_amount: number;
  start_at: string;
  /** The first regular bill date of the current calendar, and the regular charges made before it. */
  anchor_at: string;
  anchor_count: number;
  trial_done: boolean;
  next_bill_date: string | null;
  status: SubscriptionStatus;
  charge_count: number;
  failure_attempt_count: number;
  retry_count: number;
  billing_period_start: string;
  billing_period_end: string;
  pending_proration: number;
  proration_result: ProrationResult;
  billing_address: Address;
  /** Bumped by every save (compare-and-set). */
  version: number;
  created_at: string;
  updated_at: string;
  canceled_at: string | null;
}

export interface SubscriptionChargeEntity {
  id: string;
  subscription_id: string;
  kind: 'trial' | 'regular' | 'proration';
  period: number;
  attempt: number;
  amount: number;
  due_at: string;
  transaction_id: string | null;
  outcome: 'pending' | 'approved' | 'declined' | 'free';
  created_at: string;
}
