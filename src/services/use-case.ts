// A use case: one operation of a capability, typed. `input` is the zod schema of all
// the operation needs — path ids and body fields in one flat object — and `run` gets the
// platform, the request context and that input, parsed. Both adapters build the same
// input: the HTTP route from its path parameters and body (`withParams`), a command from
// its flags (or its --file body). `execute` validates it once, with the errors naming
// the body's own fields, and runs the operation.
import type { z } from 'zod';
import type { Platform } from './platform.js';
import type { RequestContext } from './context.js';
import { parseOrThrow, validationError } from '../errors.js';

export interface UseCase<S extends z.ZodType, C extends RequestContext, R> {
  readonly input: S;
  run(p: Platform, ctx: C, input: z.output<S>): Promise<R>;
}

/** Declare a use case (the types of `run`'s input follow from `input`). */
export function useCase<S extends z.ZodType, C extends RequestContext, R>(def: UseCase<S, C, R>): UseCase<S, C, R> {
  return def;
}

/** Validate `input` with the use case's schema (400 naming each bad field), then run it. */
export function execute<S extends z.ZodType, C extends RequestContext, R>(uc: UseCase<S, C, R>, p: Platform, ctx: C, input: z.input<S>): Promise<R> {
  return executeRaw(uc, p, ctx, input);
}

/** The same for input nobody typed yet (a request body with its path ids, a --file body, optional flags). */
export async function executeRaw<S extends z.ZodType, C extends RequestContext, R>(uc: UseCase<S, C, R>, p: Platform, ctx: C, raw: unknown): Promise<R> {
  return uc.run(p, ctx, parseOrThrow(uc.input, raw));
}

/**
 * A body (or query) with the path's ids added, as a use case's input. A body that is not
 * an object (none at all, an array) is passed as it is, so its schema names the problem
 * as before; a body field named like a path parameter is not a field of the request.
 */
export function withParams<B, P extends Record<string, string>>(body: B, params: P): B | (B & P) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const clash = Object.keys(params).filter((k) => Object.hasOwn(body, k));
  if (clash.length) throw validationError(clash.map((path) => ({ path, message: 'is not a field of this request' })));
  return { ...body, ...params };
}
