// Every schema version, in order: tables, indexes, triggers and functions all live here,
// one file a version (NNN-name.ts) holding both stores' statements side by side
// (./migration.ts says how). Add a new file and one line here, and bump ./latest.ts;
// never edit an applied migration. docs/store.md "DDL".
//
// PostgreSQL's types: integers are BIGINT (money in cents, counters, clock offsets in
// ms); text is COLLATE "C" (byte order, as SQLite compares, so keyset pages and ids sort
// alike). Versions 1–29 make instants text and JSON documents `json` as SQLite's DDL
// says; version 30 turns every instant into `timestamptz` (INSTANT_COLUMNS) and the JSON
// documents whose key order no client sees into `jsonb` (JSONB_COLUMNS). The store reads
// both back as the text SQLite holds (../postgres/types.ts: ISO-8601 UTC with ms, compact
// JSON), so the API's answers, events and idempotent replays are the same bytes on both
// stores. Documents answered in the key order they were written in (addresses, custom
// fields, commissions, signup entries) stay `json`, which keeps them byte for byte. Dates
// without a time (due_date, the rollups' day) stay text (see docs/postgresql.md).
// test/store/schema.test.ts holds the schema a fresh migrate makes on each store to its golden.
import type { Migration, Version } from './migration.js';
import foundation from './001-foundation.js';
import transactions from './002-transactions.js';
import recurring from './003-recurring.js';
import catalog from './004-catalog.js';
import paymentLinks from './005-payment-links.js';
import reportingIndexes from './006-reporting-indexes.js';
import onboarding from './007-onboarding.js';
import groupClocks from './008-group-clocks.js';
import rollupPerBatch from './009-rollup-per-batch.js';
import configVersion from './010-config-version.js';
import reportingRollupTriggers from './011-reporting-rollup-triggers.js';
import events from './012-events.js';
import vaultVersion from './013-vault-version.js';
import reportingRollupByDimension from './014-reporting-rollup-by-dimension.js';
import webhooks from './015-webhooks.js';
import invoicePastDue from './016-invoice-past-due.js';
import webhookSecretGrace from './017-webhook-secret-grace.js';
import eventsOneIndex from './018-events-one-index.js';
import webhookRows from './019-webhook-rows.js';
import faultRules from './020-fault-rules.js';
import exactMoneyRollup from './021-exact-money-rollup.js';
import webhookFaults from './022-webhook-faults.js';
import forkJobs from './023-fork-jobs.js';
import sharedServerState from './024-shared-server-state.js';
import planUpdateJobs from './025-plan-update-jobs.js';
import webhookHeldOnce from './026-webhook-held-once.js';
import writeSlots from './027-write-slots.js';
import idempotencySettling from './028-idempotency-settling.js';
import settlementClaimIndex from './029-settlement-claim-index.js';
import typedColumns from './030-typed-columns.js';
import rollupDimsUpsert from './031-rollup-dims-upsert.js';
import eventsWatermark from './032-events-watermark.js';
import sandboxRecordings from './033-sandbox-recordings.js';
import clockModes from './034-clock-modes.js';
import requestJournal from './035-request-journal.js';
import webhookInbox from './036-webhook-inbox.js';
import sandboxLeases from './037-sandbox-leases.js';
import droppedSandboxKeys from './038-dropped-sandbox-keys.js';

/** Every version, oldest first. */
export const versions: readonly Version[] = [
  foundation,
  transactions,
  recurring,
  catalog,
  paymentLinks,
  reportingIndexes,
  onboarding,
  groupClocks,
  rollupPerBatch,
  configVersion,
  reportingRollupTriggers,
  events,
  vaultVersion,
  reportingRollupByDimension,
  webhooks,
  invoicePastDue,
  webhookSecretGrace,
  eventsOneIndex,
  webhookRows,
  faultRules,
  exactMoneyRollup,
  webhookFaults,
  forkJobs,
  sharedServerState,
  planUpdateJobs,
  webhookHeldOnce,
  writeSlots,
  idempotencySettling,
  settlementClaimIndex,
  typedColumns,
  rollupDimsUpsert,
  eventsWatermark,
  sandboxRecordings,
  clockModes,
  requestJournal,
  webhookInbox,
  sandboxLeases,
  droppedSandboxKeys,
].sort((a, b) => a.version - b.version);

/** SQLite's migrations, as ../sqlite/migrate.ts applies them. */
export const sqliteMigrations: Migration[] = versions.map(({ version, name, sqlite }) =>
  typeof sqlite === 'function' ? { version, name, up: sqlite } : { version, name, statements: sqlite },
);

/** PostgreSQL's migrations, as ../postgres/migrate.ts applies them. */
export const postgresMigrations: Migration[] = versions.map(({ version, name, postgres }) => ({ version, name, statements: postgres }));
