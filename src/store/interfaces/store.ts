// The store as services see it: every repository, by capability. An implementation
// (src/store/sqlite) fills it once; each executor the store hands out carries it, so
// `tx.repos.transactions.insert(tx, t)` runs on whichever store `tx` belongs to.
import type { CustomerBankAccountStore, CustomerCardStore, CustomerStore } from './customers.js';
import type { EventStore } from './events.js';
import type { FaultRuleStores } from './faults.js';
import type { ApiKeyStore, GroupStore, LinkedAccountStore, ProcessorStore, SandboxStore } from './groups.js';
import type { IdempotencyStore } from './idempotency.js';
import type { InvoiceLineStore, InvoiceStore, PartnerStore, ProductStore } from './catalog.js';
import type { SignupEntryStore, SignupFormStore } from './onboarding.js';
import type { OutboxStore } from './outbox.js';
import type { PaymentLinkSessionStore, PaymentLinkStore } from './payment-links.js';
import type { PlanStore, SubscriptionChargeStore, SubscriptionStore } from './recurring.js';
import type { ReportingStore, SummaryStore } from './reporting.js';
import type { TokenStore } from './tokens.js';
import type { SettlementStore, TransactionStore } from './transactions.js';
import type { WebhookAttemptStore, WebhookDeliveryStore, WebhookEndpointStore, WebhookInboxStore, WebhookSendStore } from './webhooks.js';
import type { ClockStore, GroupClockStore, GroupRowsStore, InvoicePastDueStore, SettingsStore, VersionStore } from './platform.js';
import type { SeedStore } from './seed.js';
import type { SandboxFileStore } from './sandbox-files.js';
import type { RecordingStore } from './recordings.js';
import type { LeaseStore } from './leases.js';
import type { DroppedKeyStore } from './dropped-keys.js';
import type { JournalStore } from './journal.js';

export interface Repositories {
  apiKeys: ApiKeyStore;
  clock: ClockStore;
  customers: CustomerStore;
  customerCards: CustomerCardStore;
  customerBankAccounts: CustomerBankAccountStore;
  events: EventStore;
  /** Fault rules by scope: `faultRules.api` (a group's API calls), `faultRules.webhook` (an endpoint's deliveries). */
  faultRules: FaultRuleStores;
  recordings: RecordingStore;
  leases: LeaseStore;
  droppedKeys: DroppedKeyStore;
  groupClocks: GroupClockStore;
  groupRows: GroupRowsStore;
  groups: GroupStore;
  idempotency: IdempotencyStore;
  invoicePastDue: InvoicePastDueStore;
  journal: JournalStore;
  invoices: InvoiceStore;
  invoiceLines: InvoiceLineStore;
  linkedAccounts: LinkedAccountStore;
  outbox: OutboxStore;
  partners: PartnerStore;
  paymentLinks: PaymentLinkStore;
  paymentLinkSessions: PaymentLinkSessionStore;
  plans: PlanStore;
  processors: ProcessorStore;
  products: ProductStore;
  reporting: ReportingStore;
  sandboxes: SandboxStore;
  sandboxFiles: SandboxFileStore;
  seed: SeedStore;
  settings: SettingsStore;
  settlement: SettlementStore;
  signupEntries: SignupEntryStore;
  signupForms: SignupFormStore;
  subscriptions: SubscriptionStore;
  subscriptionCharges: SubscriptionChargeStore;
  summary: SummaryStore;
  tokens: TokenStore;
  transactions: TransactionStore;
  versions: VersionStore;
  webhookAttempts: WebhookAttemptStore;
  webhookDeliveries: WebhookDeliveryStore;
  webhookEndpoints: WebhookEndpointStore;
  webhookInbox: WebhookInboxStore;
  webhookSends: WebhookSendStore;
}

export type { Store, Executor, Tx } from './db.js';
