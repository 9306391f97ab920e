// The recording step (docs/scenarios.md): a call of a sandbox that records is appended
// with its answer's status and body before the answer is sent. Which calls are the
// sandbox's: those naming it in the path or made with its key, its clock moves and fault
// rules (admin routes otherwise are not its traffic), and public calls (tokenize, pay
// pages, onboarding) that name it in the Payctl-Sandbox header. Recording never changes
// the answer: a failure to record is logged on stderr and the call answers as usual.
import { AppError } from '../../errors.js';
import { JsonResponse, RawResponse, StreamResponse, type RouteContext } from '../route.js';
import { mayRecord, mayRecordAnywhere, recordCall, type ParsedJson } from '../../services/sandboxes/recordings.js';
import type { Exchange, Pipeline } from './exchange.js';

export const SANDBOX_HEADER = 'payctl-sandbox';
export const RECORD_HEADER = 'payctl-record';
const ADMIN_RECORDED = new Set(['POST /api/v1/sandboxes/:group_id/clock', 'POST /api/v1/sandboxes/:group_id/faults']);

function groupOf(p: Pipeline, ex: Exchange, ctx: RouteContext): string | undefined {
  const { route } = ex;
  if (route.auth.kind === 'admin') return ADMIN_RECORDED.has(`${route.method} ${route.path}`) ? ctx.params.group_id : undefined;
  const named = ctx.key?.group_id ?? ctx.params.group_id;
  if (named !== undefined) return named;
  const header = ex.req.headers[SANDBOX_HEADER];
  return typeof header === 'string' && mayRecordAnywhere(p.platform.db) ? header : undefined;
}

/** Record the call with what it answers: a route's result, or an error. */
export async function recordExchange(p: Pipeline, ex: Exchange, ctx: RouteContext | undefined, outcome: { result: unknown } | { error: unknown }): Promise<void> {
  // A client's own bookkeeping (the scenario runner's polling) says so, and is left out.
  if (!ctx || ex.req.headers[RECORD_HEADER] === 'off') return;
  const groupId = groupOf(p, ex, ctx);
  if (groupId === undefined || !mayRecord(p.platform.db, groupId)) return;
  let status: number;
  let answer: unknown = null;
  if ('error' in outcome) {
    if (!(outcome.error instanceof AppError)) return;
    status = outcome.error.status;
    answer = outcome.error.toBody();
  } else if (outcome.result instanceof JsonResponse) {
    status = outcome.result.status;
    answer = outcome.result.body;
  } else if (outcome.result instanceof RawResponse || outcome.result instanceof StreamResponse) {
    status = outcome.result instanceof RawResponse ? outcome.result.status : 200;
  } else {
    status = ex.route.status ?? 200;
    answer = outcome.result;
  }
  try {
    await recordCall(ctx.platform, groupId, { method: ex.route.method, path: ex.req.path, route: ex.route.path, headers: ex.req.headers, body: ctx.body as ParsedJson, status, answer });
  } catch (err) {
    process.stderr.write(`recording a call of sandbox ${groupId} failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
