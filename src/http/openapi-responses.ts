// Which statuses an operation can answer, derived from its route declaration the same way
// the dispatcher (pipeline/dispatch.ts) and body reader (body.ts) behave, so every route — including
// ones added later — documents them without listing them itself:
//   every operation            400, 404, 500, 503 (store unavailable with Retry-After, shutting down)
//   any credentials            401, 403
//   POST, PUT or PATCH (a JSON body)  413 over 1 MiB, 415 not JSON
//   an upload (a file, any size)      415 not its content type
//   POST (Idempotency-Key)     409 key still running, 422 key reused with another body
//   a group's key or path      409 the sandbox is still being forked or imported
//   a rate limit               429 with Retry-After and RateLimit-* headers
//   a group's own calls        a sandbox's injected faults: 429 with Retry-After, 502, 504,
//                              and Payctl-Fault on every answer (faultsApply, docs/faults.md)
// plus the route's own success status and any other it declares (onboarding's 202).
import { faultsApply, type RouteDef } from './route.js';

export interface StatusDoc {
  status: number;
  description: string;
  /** Names of response headers (components/headers) this answer carries. */
  headers: string[];
}

export const RATE_LIMIT_HEADERS = ['RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** Every answer names its request (the id the access log and the request's events carry). */
export const REQUEST_ID_HEADER = 'Request-Id';

/** Names the fault a sandbox injected into this answer. */
export const FAULT_HEADER = 'Payctl-Fault';

export const takesBody = (route: RouteDef) => route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
export const takesIdempotencyKey = (route: RouteDef) => route.method === 'POST' && !route.noIdempotency;

/** Success statuses: the route's own and the alternatives it declares. */
export function successStatuses(route: RouteDef): StatusDoc[] {
  const limit = route.rateLimit ? RATE_LIMIT_HEADERS : [];
  const replay = [...(takesIdempotencyKey(route) ? ['Idempotent-Replayed'] : []), ...(faultsApply(route) ? [FAULT_HEADER] : [])];
  return [
    { status: route.status ?? 200, description: route.successDescription ?? 'Success', headers: [REQUEST_ID_HEADER, ...limit, ...replay] },
    ...Object.entries(route.otherStatuses ?? {}).map(([status, description]) => ({
      status: Number(status),
      description,
      headers: [REQUEST_ID_HEADER, ...limit, ...replay],
    })),
  ];
}

/** Whether a route can meet a sandbox still forking: with a group's key (refused until the copy is whole), or a fork of it. */
const answersForking = (route: RouteDef): boolean =>
  route.auth.kind === 'key' || (route.auth.kind === 'admin' && route.auth.orKey !== undefined) || /\/:group_id\/(fork|export)$/.test(route.path);

/** Error statuses, each answered with the Error body. */
export function errorStatuses(route: RouteDef): StatusDoc[] {
  const faults = faultsApply(route);
  const limit = [REQUEST_ID_HEADER, ...(route.rateLimit ? RATE_LIMIT_HEADERS : []), ...(faults ? [FAULT_HEADER] : [])];
  const out: StatusDoc[] = [
    { status: 400, description: 'Validation error (`fields` names each bad field and its rule) or request not allowed now', headers: limit },
  ];
  if (route.auth.kind === 'key') {
    out.push(
      { status: 401, description: 'Missing, unknown or revoked API key', headers: limit },
      { status: 403, description: 'The API key lacks the permission, or belongs to another group than the path', headers: limit },
    );
  } else if (route.auth.kind === 'admin') {
    out.push(
      { status: 401, description: 'Missing or unknown admin token', headers: limit },
      { status: 403, description: "A group's API key where the admin token is needed (or a key lacking the permission, or of another group)", headers: limit },
    );
  } else if (route.auth.kind === 'session') {
    out.push(
      { status: 401, description: 'Missing, unknown or expired session token', headers: limit },
      { status: 403, description: 'Session token of another payment link', headers: limit },
    );
  }
  out.push({ status: 404, description: 'Unknown resource (a resource of another group is not found too)', headers: limit });
  // A group's key works once its sandbox is whole: a fork's keys are issued when the copy starts.
  const conflicts = [
    ...(takesIdempotencyKey(route) ? ['A request with this Idempotency-Key is still running; retry later'] : []),
    ...(answersForking(route) ? ['The sandbox is still being forked or imported (its status is forking or importing); retry once GET /api/v1/sandboxes/{group_id} shows status active'] : []),
  ];
  if (conflicts.length > 0) out.push({ status: 409, description: conflicts.join('. Or: '), headers: limit });
  if (route.upload) {
    out.push({ status: 415, description: `Request body is not ${route.upload.contentType}`, headers: limit });
  } else if (takesBody(route)) {
    out.push({ status: 413, description: 'Request body larger than 1 MiB', headers: limit });
    out.push({ status: 415, description: 'Request body is not JSON (Content-Type: application/json)', headers: limit });
  }
  if (takesIdempotencyKey(route)) {
    out.push({ status: 422, description: 'This Idempotency-Key was used with a different request body', headers: limit });
  }
  const injected = faults ? ' (or a fault injected by this sandbox: Payctl-Fault names it)' : '';
  const plain = [REQUEST_ID_HEADER, ...(faults ? [FAULT_HEADER] : [])];
  if (route.rateLimit || faults) {
    const why = route.rateLimit ? 'Rate limit exceeded for this client address' : 'Too many requests';
    out.push({ status: 429, description: `${why}; retry after Retry-After seconds${injected}`, headers: [...limit.slice(0, 1), 'Retry-After', ...limit.slice(1)] });
  }
  out.push({ status: 500, description: `Internal error (no details in the body; the server log has them)${injected}`, headers: plain });
  if (faults) out.push({ status: 502, description: `Bad gateway${injected}; nothing was done, retry`, headers: plain });
  out.push({
    status: 503,
    description: route.unavailable
      ? `${route.unavailable}${injected}`
      : 'The store is unavailable (error type `store_unavailable`: the database is down, restarting or out of connections, its disk is full or read-only, or its file is locked by another process; the message names the cause): ' +
        `retry after Retry-After seconds, a POST with the same Idempotency-Key (never done twice). Or the server is shutting down; retry shortly${injected}`,
    headers: [...plain, 'Retry-After'],
  });
  if (faults) out.push({ status: 504, description: `Gateway timeout${injected}; nothing was done, retry`, headers: plain });
  return out;
}
