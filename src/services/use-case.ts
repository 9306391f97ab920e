// A use case: one operation of a capability, typed. `input` is the zod schema of all
// the operation needs — path ids and body fields in one flat object — and `run` gets the
// platform, the request context and that input, parsed. Both adapters build the same
// input: the HTTP route from its path parameters and body (`withParams`), a command from
// its flags (or its --file body). `execute` validates it once, with the errors naming
// the body's own fields, and runs the operation. What differs between the callers
// beyond the input — a progress bar to feed, a caller that may go away, how long it
// waits for long work — comes in `io`, so a command and a route run the same use case.
import type { z } from 'zod';
import type { Platform } from './platform.js';
import type { RequestContext } from './context.js';
import type { Progress } from './clock/chunks.js';
import { parseOrThrow, validationError } from '../errors.js';

/** The caller's side of a run besides its input (docs/architecture.md, "Every entry is a use case"). */
export interface UseCaseIo {
  /** Hears how far long work is (done of total, what it is on): the CLI's progress bar. */
  progress?: Progress;
  /** Aborts when the caller is gone (an HTTP client disconnected, the server closing): a list's `wait` ends. */
  signal?: AbortSignal;
  /**
   * How long the caller waits for long work once it is under way (an HTTP request's answer
   * budget): then the answer says how far the work is, and the work goes on. Without it the
   * answer waits for the whole work (a command).
   */
  answerWithinMs?: number;
}

export interface UseCase<S extends z.ZodType, C extends RequestContext, R> {
  readonly input: S;
  run(p: Platform, ctx: C, input: z.output<S>, io: UseCaseIo): Promise<R>;
}

/** Declare a use case (the types of `run`'s input follow from `input`). */
export function useCase<S extends z.ZodType, C extends RequestContext, R>(def: UseCase<S, C, R>): UseCase<S, C, R> {
  return def;
}

/** Validate `input` with the use case's schema (400 naming each bad field), then run it. */
export function execute<S extends z.ZodType, C extends RequestContext, R>(uc: UseCase<S, C, R>, p: Platform, ctx: C, input: z.input<S>, io: UseCaseIo = {}): Promise<R> {
  return executeRaw(uc, p, ctx, input, io);
}

/** The same for input nobody typed yet (a request body with its path ids, a --file body, optional flags). */
export async function executeRaw<S extends z.ZodType, C extends RequestContext, R>(uc: UseCase<S, C, R>, p: Platform, ctx: C, raw: unknown, io: UseCaseIo = {}): Promise<R> {
  return uc.run(p, ctx, parseOrThrow(uc.input, raw), io);
}

/** What `untilAnswer` gives when the caller's answer budget ran out first. */
export const LATE = Symbol('late');

/**
 * Long work's outcome, or LATE once the caller's answer budget (`io.answerWithinMs`) is
 * spent; without a budget, the outcome whenever it comes.
 */
export async function untilAnswer<T>(run: Promise<T>, io: UseCaseIo): Promise<T | typeof LATE> {
  const budget = io.answerWithinMs;
  if (budget === undefined) return run;
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([run, new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), budget)))]).finally(() => clearTimeout(timer));
}

/**
 * A body (or query) with the path's ids added, as a use case's input. A body that is not
 * an object (none at all, an array) is passed as it is, so its schema names the problem
 * as before; a body field named like a path parameter is not a field of the request.
 */
export function withParams<B, P extends Record<string, unknown>>(body: B, params: P): B | (B & P) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const clash = Object.keys(params).filter((k) => Object.hasOwn(body, k));
  if (clash.length) throw validationError(clash.map((path) => ({ path, message: 'is not a field of this request' })));
  return { ...body, ...params };
}
