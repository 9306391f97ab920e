// Idempotency-Key on a POST: a completed request with the key is replayed; otherwise
// this request claims the key (in this process at once, in the database with its first
// unit of work — see services/idempotency.ts) and, once the route has answered, the
// record is settled to exactly that answer.
import { AppError, validationError } from '../../errors.js';
import { checkKey, findCompleted, IdempotencyClaim, IdempotentReplay, keyStillRunning, requestHash } from '../../services/idempotency.js';
import { RawResponse, StreamResponse, JsonResponse, type RouteContext } from '../route.js';
import type { Exchange, Pipeline } from './exchange.js';
import { StoreUnavailable } from '../../store/errors.js';
import { resolveUnknownCommit } from './store-outage.js';

/** A recorded answer to send again. */
export interface Recorded {
  status: number;
  body: unknown;
}

/** Claims the request's key (`ex.claim`), or returns the recorded answer of the request that completed with it. */
export async function claimKey(p: Pipeline, ex: Exchange, ctx: RouteContext): Promise<Recorded | undefined> {
  const { route, req } = ex;
  const idemHeader = req.headers['idempotency-key'];
  if (route.noIdempotency && idemHeader !== undefined) {
    throw validationError([{ path: 'Idempotency-Key', message: `is not accepted here: ${route.noIdempotency}` }]);
  }
  if (route.method !== 'POST' || typeof idemHeader !== 'string') return undefined;
  checkKey(idemHeader);
  const scope = ctx.key?.group_id ?? 'public';
  const flightKey = `${scope}\u0000${idemHeader}`;
  // Before the lookup: a request still settling its answer is running, not replayable yet.
  if (p.inFlightKeys.has(flightKey)) throw keyStillRunning();
  const hash = requestHash(route.method, req.path, ex.raw);
  const done = await findCompleted(p.platform.db, scope, idemHeader, hash);
  if (done) return done;
  // Again after it, with the claim in the same tick: of two first requests, one runs.
  if (p.inFlightKeys.has(flightKey)) throw keyStillRunning();
  ex.claim = new IdempotencyClaim(scope, idemHeader, hash, route.status ?? 200, ctx.platform.clock);
  p.inFlightKeys.add(flightKey);
  ex.release = () => p.inFlightKeys.delete(flightKey);
  return undefined;
}

/**
 * The route's handler, its answer settled into the claim: a result, or the error of work
 * that committed before the request failed (a retry gets this same failure). A replay
 * found inside the route's unit of work is returned as `replay`.
 */
export async function runRoute(p: Pipeline, ex: Exchange, ctx: RouteContext): Promise<{ result: unknown } | { replay: Recorded }> {
  const { claim, route } = ex;
  let result: unknown;
  try {
    result = await route.handler(ctx);
  } catch (err) {
    if (err instanceof IdempotentReplay) return { replay: err.record };
    // The COMMIT of the write holding the key went unanswered: answer what was saved, if it was.
    if (claim?.outcomeUnknown && err instanceof StoreUnavailable) {
      const found = await resolveUnknownCommit(p.platform.db, claim, err);
      if (found instanceof StoreUnavailable) throw found;
      return { replay: found };
    }
    if (claim && err instanceof AppError) await claim.settle(p.platform.db, { status: err.status, body: err.toBody() });
    throw err;
  }
  if (claim && !(result instanceof RawResponse) && !(result instanceof StreamResponse)) {
    const answer = result instanceof JsonResponse ? result : { status: route.status ?? 200, body: result };
    await claim.settle(p.platform.db, { status: answer.status, body: answer.body });
  }
  return { result };
}
