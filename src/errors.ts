// The two kinds of error payctl knows: a user error (AppError: what is wrong and how
// to fix it, mapped to an HTTP status and a CLI exit code in one place) and a bug
// (anything else: a 500 without internals, or a one-line CLI error).
import { z } from 'zod';
import { closest } from './lib/closest.js';

export const ERROR_TYPES = [
  'validation_error',
  'invalid_request',
  'authentication_error',
  'permission_error',
  'not_found',
  'idempotency_error',
  'rate_limited',
  'unavailable',
  'store_unavailable',
  'internal_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface FieldProblem {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly fields?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): { error: { type: ErrorType; message: string; fields?: FieldProblem[] } } {
    return { error: { type: this.type, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } };
  }
}

export const validationError = (fields: FieldProblem[], message?: string) =>
  new AppError(400, 'validation_error', message ?? describeFields(fields), fields);
export const invalidRequest = (message: string, fields?: FieldProblem[]) =>
  new AppError(400, 'invalid_request', message, fields);
export const authenticationError = (message: string) => new AppError(401, 'authentication_error', message);
export const permissionError = (message: string) => new AppError(403, 'permission_error', message);
export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`);
export const idempotencyInFlight = () =>
  new AppError(409, 'idempotency_error', 'a request with this Idempotency-Key is still running; retry later');
/** A sandbox whose fork is still copying its rows: nothing may read or change it until it is whole. */
export const sandboxForking = (groupId: string) =>
  new AppError(409, 'invalid_request', `sandbox ${groupId} is still being forked; retry once GET /api/v1/sandboxes/${groupId} shows status active`);
export const sandboxImporting = (groupId: string) =>
  new AppError(409, 'invalid_request', `sandbox ${groupId} is still being imported; retry once GET /api/v1/sandboxes/${groupId} shows status active`);
export const idempotencyMismatch = () =>
  new AppError(422, 'idempotency_error', 'this Idempotency-Key was used with a different request body');
export const payloadTooLarge = () => new AppError(413, 'invalid_request', 'request body is larger than 1 MiB');
export const unsupportedMediaType = () =>
  new AppError(415, 'invalid_request', 'request body must be JSON (Content-Type: application/json)');
export const rateLimited = (retryAfterSeconds: number, headers: Record<string, string>) =>
  new AppError(429, 'rate_limited', `too many requests; retry in ${retryAfterSeconds}s`, undefined, {
    'Retry-After': String(retryAfterSeconds),
    ...headers,
  });

export const unavailable = () =>
  new AppError(503, 'unavailable', 'the server is shutting down; retry shortly', undefined, { 'Retry-After': '1' });

/** The body of every error answer, for the OpenAPI document. */
export const errorBodySchema = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPES),
      message: z.string(),
      code: z.string().optional().describe('a machine-readable reason where one exists (payment_declined)'),
      response_code: z.string().optional().describe("the processor's response code of a declined payment"),
      response_text: z.string().optional().describe("the processor's response text of a declined payment"),
      transaction_id: z.string().optional().describe('the declined transaction of a declined payment (every attempt that reaches the processor is a transaction)'),
      fields: z
        .array(z.object({ path: z.string().describe('dotted, array indexes as numbers: products.0.quantity'), message: z.string() }))
        .optional()
        .describe('validation errors only: every bad field and the rule it breaks'),
    }),
  })
  .meta({ id: 'Error' });

/** Dotted path with array indexes as numbers: `products.0.quantity`. */
export function dottedPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => String(p)).join('.');
}

/** Whether `path` names a field that is absent from `input` (its parent is an object without that key). */
function absentIn(input: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  if (path.length === 0) return false;
  let parent: unknown = input;
  for (const key of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return false;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  return parent !== null && typeof parent === 'object' && !Array.isArray(parent) && (parent as Record<PropertyKey, unknown>)[path[path.length - 1]!] === undefined;
}

/**
 * A field that is missing says "is required" whatever its rule (a missing `source` is not
 * "must be one of …"), with the rule after it; `input` is the value parsed, when known.
 */
function messageOf(issue: z.core.$ZodIssue, input: unknown): string {
  const typeRule = issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union';
  if (!typeRule || input === undefined || !absentIn(input, issue.path) || issue.message.startsWith('is required')) return issue.message;
  // zod's own wording for a missing value ("Invalid input: expected string, received undefined") says nothing more.
  return /received undefined/.test(issue.message) ? 'is required' : `is required (${issue.message})`;
}

/** "… is not a field of this request", with the known name nearest to it (src/lib/closest.ts) when one is close. */
export function unknownName(what: string, key: string, known: readonly string[] = []): string {
  const guess = closest(key, known);
  return `is not a ${what}${guess ? `: did you mean ${guess}?` : ''}`;
}

/**
 * A union's failure in the terms of the one option whose type the value had (a sandbox's
 * `clock` given as an object is told about its `mode`, not "Invalid input"); the union's
 * own issue when no single option matched the type.
 */
function unfoldUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || !('errors' in issue) || !Array.isArray(issue.errors)) return [issue];
  const typed = (issue.errors as z.core.$ZodIssue[][]).filter((option) => !option.some((i) => i.code === 'invalid_type' && i.path.length === 0));
  if (typed.length !== 1) return [issue];
  return typed[0]!.flatMap((i) => unfoldUnion({ ...i, path: [...issue.path, ...i.path] } as z.core.$ZodIssue));
}

/** `known`: the top-level field names of the schema, for a suggestion after an unknown one. */
export function fieldsFromZod(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = [], input?: unknown, known?: readonly string[]): FieldProblem[] {
  return error.issues.flatMap(unfoldUnion).flatMap((issue) =>
    // An unknown field gets its own path (no mass assignment: `status` on a sale is refused by name).
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: dottedPath([...prefix, ...issue.path, key]),
          message: unknownName('field of this request', key, issue.path.length === 0 ? known : undefined),
        }))
      : [{ path: dottedPath([...prefix, ...issue.path]) || '(body)', message: messageOf(issue, input) }],
  );
}

function describeFields(fields: FieldProblem[]): string {
  if (fields.length === 0) return 'invalid request';
  const first = fields[0]!;
  const more = fields.length > 1 ? ` (and ${fields.length - 1} more problem${fields.length > 2 ? 's' : ''})` : '';
  return `${first.path}: ${first.message}${more}`;
}

/** Parse `input` with `schema` or throw a 400 naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix: ReadonlyArray<PropertyKey> = []): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldsFromZod(result.error, prefix, input, schema instanceof z.ZodObject ? Object.keys(schema.shape) : undefined));
  return result.data;
}
