// Every schema migration, in order. Add a new file and one line here; never edit an
// applied migration.
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

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [foundation, transactions, recurring, catalog, paymentLinks, reportingIndexes, onboarding, groupClocks, rollupPerBatch, configVersion].sort((a, b) => a.version - b.version);
