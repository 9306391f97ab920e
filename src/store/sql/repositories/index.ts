// The repositories both stores share (their SQL is in both dialects, sql/dialect.ts), as
// the Repositories the services take from the executors a store hands out; each store
// adds its own seed (sqlite/repositories.ts, postgres/repositories.ts) and may replace
// one where its SQL really differs.
import type { Repositories } from '../../interfaces/store.js';
import { apiKeyRepo } from './api-keys.js';
import { clockRepo } from './clock.js';
import { customerBankAccountRepo, customerCardRepo, customerRepo } from './customers.js';
import { eventRepo } from './events.js';
import { faultRuleRepos } from './faults.js';
import { groupClockRepo } from './group-clocks.js';
import { groupRepo, linkedAccountRepo, processorRepo } from './groups.js';
import { idempotencyRepo } from './idempotency.js';
import { invoicePastDueRepo } from './invoice-past-due.js';
import { invoiceLineRepo, invoiceRepo } from './invoices.js';
import { signupEntryRepo, signupFormRepo } from './onboarding.js';
import { outboxRepo } from './outbox.js';
import { partnerRepo } from './partners.js';
import { paymentLinkRepo, paymentLinkSessionRepo } from './payment-links.js';
import { planRepo } from './plans.js';
import { productRepo } from './products.js';
import { reportingRepo } from './reporting.js';
import { summaryRepo } from './reporting-summary.js';
import { sandboxRepo } from './sandboxes.js';
import { sandboxFilesRepo } from './sandbox-files.js';
import { recordingRepo } from './recordings.js';
import { leaseRepo } from './leases.js';
import { droppedKeyRepo } from './dropped-keys.js';
import { journalRepo } from './journal.js';
import { settingsRepo } from './settings.js';
import { settlementRepo } from './settlement.js';
import { subscriptionChargeRepo, subscriptionRepo } from './subscriptions.js';
import { tokenRepo } from './tokens.js';
import { transactionRepo } from './transactions.js';
import { versionsRepo } from './versions.js';
import { webhookSendRepo } from './webhook-sends.js';
import { attemptRepo, deliveryRepo, webhookEndpointRepo } from './webhooks.js';
import { inboxRepo } from './webhook-inbox.js';
import { groupRowsRepo } from '../group-tables.js';
import { beginDrop, dropChunk, pendingDrops } from '../group-drop.js';

export const sharedRepositories: Omit<Repositories, 'seed'> = Object.freeze({
  apiKeys: apiKeyRepo,
  clock: clockRepo,
  customers: customerRepo,
  customerCards: customerCardRepo,
  customerBankAccounts: customerBankAccountRepo,
  events: eventRepo,
  faultRules: faultRuleRepos,
  recordings: recordingRepo,
  leases: leaseRepo,
  droppedKeys: droppedKeyRepo,
  journal: journalRepo,
  groupClocks: groupClockRepo,
  groupRows: { ...groupRowsRepo, beginDrop, dropChunk, pendingDrops },
  groups: groupRepo,
  idempotency: idempotencyRepo,
  invoicePastDue: invoicePastDueRepo,
  invoices: invoiceRepo,
  invoiceLines: invoiceLineRepo,
  linkedAccounts: linkedAccountRepo,
  outbox: outboxRepo,
  partners: partnerRepo,
  paymentLinks: paymentLinkRepo,
  paymentLinkSessions: paymentLinkSessionRepo,
  plans: planRepo,
  processors: processorRepo,
  products: productRepo,
  reporting: reportingRepo,
  sandboxes: sandboxRepo,
  sandboxFiles: sandboxFilesRepo,
  settings: settingsRepo,
  settlement: settlementRepo,
  signupEntries: signupEntryRepo,
  signupForms: signupFormRepo,
  subscriptions: subscriptionRepo,
  subscriptionCharges: subscriptionChargeRepo,
  summary: summaryRepo,
  tokens: tokenRepo,
  transactions: transactionRepo,
  versions: versionsRepo,
  webhookAttempts: attemptRepo,
  webhookDeliveries: deliveryRepo,
  webhookEndpoints: webhookEndpointRepo,
  webhookInbox: inboxRepo,
  webhookSends: webhookSendRepo,
});
