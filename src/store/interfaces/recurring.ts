// What the recurring services need from a store: plans, subscriptions and the charge
// ledger, as domain entities. The SQLite repositories implement these; a second store
// implements the same interfaces and nothing above src/store changes.
import type { Executor, Tx } from '../interfaces/db.js';
import type { PlanEntity, SubscriptionChargeEntity, SubscriptionEntity } from '../../domain/recurring/entities.js';
import type { GroupScope } from './scope.js';
import type { ProrationBehavior } from '../../domain/recurring/constants.js';
import type { CustomerBankAccountEntity, CustomerCardEntity } from '../../domain/customers.js';

export interface PlanStore {
  insert(tx: Tx, plan: PlanEntity): Promise<void>;
  /** Rewrites everything but identity and created_at. */
  update(tx: Tx, plan: PlanEntity): Promise<void>;
  find(ex: Executor, groupId: string, linkedAccountId: string, id: string): Promise<PlanEntity | undefined>;
  /** Newest first. */
  list(ex: Executor, groupId: string, linkedAccountId: string, limit: number, offset: number): Promise<PlanEntity[]>;
  count(ex: Executor, groupId: string, linkedAccountId: string): Promise<number>;
  /** Record (or restart from the first subscription) the plan's update of its active subscriptions. */
  beginUpdate(tx: Tx, job: PlanUpdateJob): Promise<void>;
  /** The plan's update under way, its row claimed for this write (another server's chunk of it is waited for); undefined when none. */
  claimUpdate(tx: Tx, planId: string): Promise<PlanUpdateJob | undefined>;
  /** Where the update got to: the last subscription id done. */
  advanceUpdate(tx: Tx, planId: string, cursor: string): Promise<void>;
  /** The update reached every subscription: it is over. */
  endUpdate(tx: Tx, planId: string): Promise<void>;
  /** Plans with an update under way (the server's tick resumes them). */
  pendingUpdates(ex: Executor): Promise<string[]>;
}

/** A plan update under way over its active subscriptions, a chunk at a time in id order. */
export interface PlanUpdateJob {
  plan_id: string;
  group_id: string;
  linked_account_id: string;
  behavior: ProrationBehavior;
  /** The last subscription id done ('' before the first). */
  cursor: string;
  /** The update's time: each subscription it reaches takes it as its updated_at. */
  updated_at: string;
  request_id: string | null;
  idempotency_key: string | null;
}

export interface SubscriptionFilter {
  groupId: string;
  linkedAccountId: string;
  status?: string | undefined;
  planId?: string | undefined;
  customerId?: string | undefined;
}

/** The stored cards and bank accounts a batch of subscriptions pays with. */
export interface PaymentMethods {
  cards: Map<string, CustomerCardEntity>;
  banks: Map<string, CustomerBankAccountEntity>;
}

export interface SubscriptionStore {
  insert(tx: Tx, subscription: SubscriptionEntity): Promise<void>;
  /**
   * Compare-and-set save: writes every mutable field when the stored version is still
   * `subscription.version`, and bumps it. Returns the number of rows changed (0 = someone else won).
   */
  save(tx: Tx, subscription: SubscriptionEntity): Promise<number>;
  find(ex: Executor, groupId: string, linkedAccountId: string, id: string): Promise<SubscriptionEntity | undefined>;
  /** Newest first. */
  list(ex: Executor, filter: SubscriptionFilter, limit: number, offset: number): Promise<SubscriptionEntity[]>;
  count(ex: Executor, filter: SubscriptionFilter): Promise<number>;
  /** Due active subscriptions (of the groups in `scope`), in (next_bill_date, id) order after `after`. */
  dueBatch(ex: Executor, until: string, after: { at: string; id: string } | null, limit: number, scope?: GroupScope): Promise<SubscriptionEntity[]>;
  /** The same, claimed by this write (a billing chunk): rows another server's write holds are passed over. */
  claimDue(tx: Tx, until: string, after: { at: string; id: string } | null, limit: number, scope?: GroupScope): Promise<SubscriptionEntity[]>;
  countDue(ex: Executor, until: string, scope?: GroupScope): Promise<number>;
  /** Active subscriptions of a plan, a page at a time in id order. */
  activeOfPlan(ex: Executor, planId: string, afterId: string, limit: number): Promise<SubscriptionEntity[]>;
  /** The stored cards and bank accounts a batch of subscriptions pays with (one query each). */
  paymentMethods(ex: Executor, subscriptions: readonly SubscriptionEntity[]): Promise<PaymentMethods>;
}

export interface SubscriptionChargeStore {
  /** Claims one attempt; returns false when it was already recorded. */
  claim(tx: Tx, charge: SubscriptionChargeEntity): Promise<boolean>;
  settle(tx: Tx, id: string, outcome: SubscriptionChargeEntity['outcome'], transactionId: string | null): Promise<void>;
  /** Next free attempt number of a kind and period (proration charges are numbered in order). */
  nextAttempt(ex: Executor, subscriptionId: string, kind: SubscriptionChargeEntity['kind'], period: number): Promise<number>;
  listBySubscription(ex: Executor, subscriptionId: string): Promise<SubscriptionChargeEntity[]>;
}
