// A sandbox's injected fault (Payctl-Fault): drawn before the route runs, for a group's
// own calls (key or session routes naming it), never for admin routes. It is marked on
// the answer and in the access log; latency waits, an error answers before anything is
// done (no idempotency record, no object, no event), other effects act later.
import { AppError } from '../../errors.js';
import { injectFault, mayFault, mayFaultAnywhere } from '../../services/faults/injector.js';
import { describeFault } from '../../domain/faults.js';
import { operationOf } from '../faults/operations.js';
import { simulatedFault } from '../faults/simulate.js';
import { faultsApply, type RouteContext } from '../route.js';
import { sleep } from './answer.js';
import type { Exchange, Pipeline } from './exchange.js';

export async function drawFault(p: Pipeline, ex: Exchange, ctx: RouteContext): Promise<void> {
  const { route, req, res } = ex;
  const simulate = req.headers['payctl-simulate'];
  let faultGroup = faultsApply(route) ? (ctx.key?.group_id ?? ctx.params.group_id) : undefined;
  if (faultGroup === undefined && route.faultGroupOf && mayFaultAnywhere(p.platform.db, simulate !== undefined)) {
    faultGroup = await route.faultGroupOf(ctx);
  }
  if (faultGroup === undefined || !mayFault(p.platform.db, faultGroup, simulate !== undefined)) return;
  const operation = operationOf(route.method, route.path, ctx.body);
  ex.fault =
    simulate !== undefined
      ? await simulatedFault(ctx.platform, faultGroup, String(simulate), operation)
      : await injectFault(ctx.platform, { groupId: faultGroup, method: route.method, path: req.path, operation });
  if (!ex.fault) return;
  ex.faultNote = describeFault(ex.fault);
  res.setHeader('Payctl-Fault', ex.faultNote);
  const e = ex.fault.effect;
  if (e.action === 'latency') await sleep(e.ms);
  if (e.action === 'error') throw injectedError(e.status, e.retry_after, ex.faultNote);
}

/** An injected `error` fault: the platform's error body for that status. */
function injectedError(status: number, retryAfter: number | undefined, note: string): AppError {
  const type = status === 429 ? 'rate_limited' : status === 500 ? 'internal_error' : 'unavailable';
  const headers = retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : undefined;
  return new AppError(status, type, `injected fault (Payctl-Fault: ${note}); nothing was done, retry`, undefined, headers);
}
