// The data directory: the folder of the database, where the profile (config.json), the
// access log, the onboarding wizard's draft and the running server's address (server.json)
// live, so that each database keeps its own files and nothing lands in the current folder.
import path from 'node:path';

export const dataDirOf = (dbPath: string): string => path.dirname(path.resolve(dbPath));
export const fileBeside = (dbPath: string, name: string): string => path.join(dataDirOf(dbPath), name);

export const ONBOARDING_DRAFT_FILE = 'onboarding-draft.json';
