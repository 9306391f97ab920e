// Every schema migration, in order. Add a new file and one line here; never edit an
// applied migration.
import foundation from './001-foundation.js';
import transactions from './002-transactions.js';
import recurring from './003-recurring.js';
import catalog from './004-catalog.js';
import paymentLinks from './005-payment-links.js';
import reportingIndexes from './006-reporting-indexes.js';
import onboarding from './007-onboarding.js';
import rollupPerBatch from './008-rollup-per-batch.js';
import configVersion from './009-config-version.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [foundation, transactions, recurring, catalog, paymentLinks, reportingIndexes, onboarding, rollupPerBatch, configVersion].sort((a, b) => a.version - b.version);
