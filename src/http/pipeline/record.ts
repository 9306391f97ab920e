// The journal step (docs/journal.md): every call on a group is handed to the request
// journal once it is answered — its method, path, route, status, latency,
// Idempotency-Key, fault and bodies (masked by the journal's entry rule,
// src/domain/journal.ts). The call's group: the one its key belongs to, else the one
// its path names, else (a public call: tokenize, pay pages, onboarding) the one its
// Payctl-Sandbox header names; a group named only by the caller is journaled only once
// it is known to exist, so no caller can fill the store with journals of made-up groups.
// A call is a recording's step (docs/scenarios.md) only when it was made for its group —
// with its key, the admin token, or as a public call naming it — and is not marked
// `Payctl-Record: off` (the scenario runner's polling); of the admin routes, only clock
// moves and fault rules are steps. Journaling never changes the answer and a call never
// waits for it (services/journal/writer.ts).
import { AppError } from '../../errors.js';
import { JsonResponse, RawResponse, StreamResponse, type RouteContext } from '../route.js';
import { journalEntry, type CallFacts } from '../../domain/journal.js';
import { TOKENIZE_ROUTE } from '../../domain/recording.js';
import { journalWriter } from '../../services/journal/writer.js';
import { configCache } from '../../store/config-cache.js';
import type { Exchange, Pipeline } from './exchange.js';

export const SANDBOX_HEADER = 'payctl-sandbox';
export const RECORD_HEADER = 'payctl-record';
const ADMIN_RECORDED = new Set(['POST /api/v1/sandboxes/:group_id/clock', 'POST /api/v1/sandboxes/:group_id/faults']);
/** Reads of the journal itself are not journaled (a client waiting on it would fill it). */
const NOT_JOURNALED = new Set(['GET /api/v1/sandboxes/:group_id/requests', 'GET /api/v1/sandboxes/:group_id/recording']);
/** Headers a replay needs (never Authorization). */
const KEPT_HEADERS: Array<[string, string]> = [
  ['idempotency-key', 'Idempotency-Key'],
  ['payctl-simulate', 'Payctl-Simulate'],
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The answer a call got, as the journal keeps it: its status and body. */
export interface Answered {
  status: number;
  body: unknown;
}

/** What a route's result or error answers (a stream or raw bytes: their status, no body). */
export function answeredBy(ex: Exchange, outcome: { result: unknown } | { error: unknown }): Answered {
  if ('error' in outcome) {
    const err = outcome.error;
    return err instanceof AppError ? { status: err.status, body: err.toBody() } : { status: 500, body: { error: { type: 'internal_error', message: 'internal error; the server log has details' } } };
  }
  const r = outcome.result;
  if (r instanceof JsonResponse) return { status: r.status, body: r.body };
  if (r instanceof RawResponse) return { status: r.status, body: null };
  if (r instanceof StreamResponse) return { status: 200, body: null };
  return { status: ex.route.status ?? 200, body: r };
}

/** Hand the answered call to the journal (nothing to wait for). */
export function journalExchange(p: Pipeline, ex: Exchange, ctx: RouteContext | undefined, answered: Answered | undefined, durationMs: number): void {
  if (!ctx || !answered) return;
  try {
    journal(p, ex, ctx, answered, durationMs);
  } catch (err) {
    process.stderr.write(`journaling ${ex.route.method} ${ex.req.path} failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

function journal(p: Pipeline, ex: Exchange, ctx: RouteContext, answered: Answered, durationMs: number): void {
  const { route } = ex;
  const name = `${route.method} ${route.path}`;
  if (NOT_JOURNALED.has(name)) return;
  const writer = journalWriter(p.platform);
  if (!writer) return;
  const header = ex.req.headers[SANDBOX_HEADER];
  const named = ctx.params.group_id ?? (typeof header === 'string' && (route.auth.kind === 'public' || route.auth.kind === 'session') ? header : undefined);
  const groupId = ctx.key?.group_id ?? named;
  if (groupId === undefined || !UUID.test(groupId)) return;
  // Made for the group: with its key, the admin token, or as a public call naming it.
  const forGroup = ctx.key !== undefined || ctx.admin === true || route.auth.kind === 'public' || route.auth.kind === 'session';
  const refused = answered.status === 401 || answered.status === 403;
  const recordable = forGroup && !refused && ex.req.headers[RECORD_HEADER] !== 'off' && (route.auth.kind !== 'admin' || ADMIN_RECORDED.has(name));
  const idem = ex.req.headers['idempotency-key'];
  const facts: CallFacts = {
    group_id: groupId,
    request_id: ex.requestId,
    at: new Date(performance.timeOrigin + ex.started).toISOString(),
    method: route.method,
    path: ex.req.path,
    route: route.path,
    status: answered.status,
    duration_ms: Math.round(durationMs * 100) / 100,
    idempotency_key: typeof idem === 'string' ? idem : null,
    fault: ex.faultNote,
    recordable,
    headers: Object.fromEntries(KEPT_HEADERS.filter(([h]) => typeof ex.req.headers[h] === 'string').map(([h, as]) => [as, ex.req.headers[h] as string])),
    raw: ex.raw,
    dropBody: name === TOKENIZE_ROUTE,
    answer: answered.body,
    ...(ex.sentJson !== undefined ? { answerText: ex.sentJson } : {}),
  };
  // The key's group exists (it authenticated); so does one an admin route answered for.
  const known = ctx.key !== undefined || (ctx.admin === true && answered.status !== 404) || configCache(p.platform.db).group(groupId) !== undefined;
  if (known) return writer.add(journalEntry(facts));
  writer.addLater(
    p.platform.db.repos.groupClocks.get(p.platform.db, groupId).then((clock) => (clock === undefined ? undefined : journalEntry(facts))),
  );
}
