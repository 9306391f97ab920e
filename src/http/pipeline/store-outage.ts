// A request that met a store outage (docs/decisions.md#store-outage): answered 503
// store_unavailable with Retry-After, never 500. A write whose COMMIT went unanswered is
// resolved first when it can be: its Idempotency-Key record (saved in the same
// transaction as the work) is looked up for a few seconds; found, the request answers
// what was saved; not found once the store answers, nothing was saved (a plain 503).
import { AppError } from '../../errors.js';
import { asStoreUnavailable, StoreUnavailable } from '../../store/errors.js';
import type { Store } from '../../store/interfaces/db.js';
import type { IdempotencyRecord } from '../../store/interfaces/idempotency.js';
import { findCompleted } from '../../services/idempotency.js';
import { storeWatch } from '../../services/store-watch.js';
import type { Exchange, Pipeline } from './exchange.js';

/** 503: the store is away (docs/decisions.md#store-outage): the cause in words, and when to ask again. */
export function storeUnavailable(outage: StoreUnavailable, idempotencyKey: boolean): AppError {
  const retry = outage.commitUnknown
    ? idempotencyKey
      ? 'retry with the same Idempotency-Key: the answer is the original one if it was saved, and nothing is done twice'
      : 'check whether it was saved before retrying (send an Idempotency-Key to make retries safe)'
    : `retry in ${outage.retryAfterS}s`;
  return new AppError(503, 'store_unavailable', `the store is unavailable: ${outage.words}; ${retry}`, undefined, {
    'Retry-After': String(outage.retryAfterS),
  });
}

/** The error to answer: a store outage as its 503 (counted, and background work pauses), anything else as it is. */
export function outageAsAnswer(p: Pipeline, ex: Exchange, err: unknown): unknown {
  const outage = storeWatch(p.platform.db).failed(err);
  return outage ? storeUnavailable(outage, ex.req.headers['idempotency-key'] !== undefined) : err;
}

/** Waits between lookups of an unknown commit's record (about 3 s in all, within any client's timeout). */
const LOOKUP_WAITS_MS = [100, 200, 400, 800, 1600];

/**
 * The record of a key whose claiming write's COMMIT went unanswered: the record when it
 * was saved; otherwise the error to answer (an outage: not saved, or still unknown).
 */
export async function resolveUnknownCommit(
  store: Store,
  key: { scope: string; key: string; hash: string },
  err: StoreUnavailable,
): Promise<IdempotencyRecord | StoreUnavailable> {
  for (const wait of LOOKUP_WAITS_MS) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      const found = await findCompleted(store, key.scope, key.key, key.hash);
      // The store answers and holds no record: the transaction (record and work) was not saved.
      return found ?? new StoreUnavailable('connection_lost', err.detail);
    } catch (lookup) {
      if (!asStoreUnavailable(lookup)) throw lookup;
    }
  }
  return err;
}
