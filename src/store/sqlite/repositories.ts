// The SQLite store's repositories: the shared ones (../sql/repositories) and its own seed.
import type { Repositories } from '../interfaces/store.js';
import { sharedRepositories } from '../sql/repositories/index.js';
import { sqliteSeed } from './seed.js';

export const sqliteRepositories: Repositories = Object.freeze({ ...sharedRepositories, seed: sqliteSeed });
