// Patch-style updates. The API's updates replace the whole object (a body); the CLI's
// update commands change some fields and keep the rest. They pass an edit instead: a
// function from the current object (read inside the update's own unit of work) to the
// full body, so reading, merging and writing are one transaction — no lost update when
// another process writes the same object in between.
import type { z } from 'zod';
import { parseOrThrow } from '../errors.js';

/** The current object → the full replacement body. */
export type Edit<T> = (current: T) => unknown;

/**
 * The update's input: a body is validated at once (before anything is read, as the
 * API answers); an edit is applied to the current object and validated inside the
 * unit of work, once `current` can be read.
 */
export function replacement<S extends z.ZodType, T>(schema: S, body: unknown): (current: () => T | Promise<T>) => Promise<z.output<S>> {
  if (typeof body === 'function') return async (current) => parseOrThrow(schema, await (body as Edit<T>)(await current()));
  const input = parseOrThrow(schema, body);
  return async () => input;
}
