// The data directory: where the profile (config.json), the access log, the onboarding
// wizard's draft and the running server's address (server.json) live, so that each
// database keeps its own files and nothing lands in the current folder. It is the SQLite
// file's folder, or --data-dir / PAYCTL_DATA_DIR (`./.payctl` for a postgres:// URL):
// config/env.ts dataDirFrom, and a command's `this.dataDir(flags.db)`.
import path from 'node:path';

export const ONBOARDING_DRAFT_FILE = 'onboarding-draft.json';

/** A file of the data directory. */
export const fileIn = (dataDir: string, name: string): string => path.join(dataDir, name);
