// Every schema migration, in order. Add a new file and one line here; never edit an
// applied migration.
import foundation from './001-foundation.js';
import transactions from './002-transactions.js';
import catalog from './004-catalog.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [foundation, transactions, catalog].sort((a, b) => a.version - b.version);
