// Writing the answer: a route's result (JSON, raw bytes or a stream), a recorded answer
// replayed, an error mapped to its status and body, or no answer at all (a
// `timeout_after_commit` fault). The one place the pipeline writes a response body.
import type http from 'node:http';
import { stringifyJson } from '../../lib/exact-json.js';
import { AppError } from '../../errors.js';
import { isMissingReference } from '../../store/errors.js';
import { JsonResponse, RawResponse, StreamResponse } from '../route.js';
import type { Exchange, Pipeline } from './exchange.js';
import { connectionSignal } from './connection-signal.js';

const JSON_TYPE = 'application/json; charset=utf-8';
export const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, Idempotency-Key, Payctl-Simulate',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  // A page's script may read these answer headers (the request id to quote in a support question).
  'Access-Control-Expose-Headers': 'Request-Id, Idempotent-Replayed, Payctl-Fault, Retry-After, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset',
};

/** Send `body` as JSON; returns the text sent (the journal keeps that same text). */
function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): string {
  const text = stringifyJson(body);
  res.writeHead(status, { 'Content-Type': JSON_TYPE, ...headers });
  res.end(text);
  return text;
}

/** The route's result: a stream runs on the connection, raw bytes and JSON are sent. */
export async function answer(p: Pipeline, ex: Exchange, result: unknown): Promise<void> {
  const { res, cors, route } = ex;
  if (result instanceof StreamResponse) {
    await result.run({ req: ex.req, res, signal: connectionSignal(res, p.runtime.closing), settings: p.settings });
  } else if (result instanceof RawResponse) {
    res.writeHead(result.status, { ...(cors ? CORS : {}), ...result.headers });
    res.end(result.body);
  } else if (result instanceof JsonResponse) {
    ex.sentJson = send(res, result.status, result.body, cors ? CORS : {});
  } else {
    ex.sentJson = send(res, route.status ?? 200, result, cors ? CORS : {});
  }
}

/** The recorded answer's value, sent as JSON text again: the same text the first answer sent. */
export function replay(res: http.ServerResponse, recorded: { status: number; body: unknown }, cors: boolean): void {
  res.writeHead(recorded.status, { 'Content-Type': JSON_TYPE, 'Idempotent-Replayed': 'true', ...(cors ? CORS : {}) });
  res.end(stringifyJson(recorded.body));
}

/** An error as its status and body; a bug as a 500 without internals (the operator sees the stack on stderr). */
export function sendError(res: http.ServerResponse, err: unknown, cors: boolean): void {
  if (err instanceof AppError) return void send(res, err.status, err.toBody(), { ...(err.headers ?? {}), ...(cors ? CORS : {}) });
  if (isMissingReference(err)) {
    return sendError(res, new AppError(404, 'not_found', 'not found: the group of this request, or an object it names, was removed meanwhile'), cors);
  }
  process.stderr.write(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  send(res, 500, { error: { type: 'internal_error', message: 'internal error; the server log has details' } });
}

/** The error body's type an error is answered with (for the access log). */
export const errorTypeOf = (err: unknown): string => (err instanceof AppError ? err.type : isMissingReference(err) ? 'not_found' : 'internal_error');

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A `timeout_after_commit` fault: the work is committed; hold the connection, then close it without an answer. */
export async function dropAnswer(res: http.ServerResponse, holdMs: number): Promise<void> {
  if (holdMs > 0) await sleep(holdMs);
  res.destroy();
}
