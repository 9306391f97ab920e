// `payctl serve` started before its store is reachable (PostgreSQL still starting, a
// disk not mounted yet) waits for it instead of exiting: it tries again with a backoff
// that doubles up to a bound, printing why each time. Any other error (a bad --db, a
// schema too new) ends the command as before.
import { asStoreUnavailable, FIRST_BACKOFF_MS, MAX_BACKOFF_MS } from '../store/errors.js';

export interface WaitOptions {
  log: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

/** The outage behind an error opening the store (the error itself, or its cause), if one. */
const outageOf = (err: unknown) => asStoreUnavailable(err) ?? asStoreUnavailable((err as { cause?: unknown } | undefined)?.cause);

export async function waitForStore<T>(open: () => Promise<T>, opts: WaitOptions): Promise<T> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let wait = FIRST_BACKOFF_MS * 2; ; wait = Math.min(MAX_BACKOFF_MS, wait * 2)) {
    try {
      return await open();
    } catch (err) {
      const outage = outageOf(err);
      if (!outage) throw err;
      opts.log(`waiting for the store: ${outage.message}; trying again in ${wait / 1000}s`);
      await sleep(wait);
    }
  }
}
