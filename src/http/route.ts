// The route table's shape. Every route under /api/v1 is described once here: its path
// (exactly the spec's), who may call it, its schemas (for the OpenAPI document) and a
// thin handler that calls one service. Services validate bodies with the same schemas.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Platform } from '../services/platform.js';
import type { DemoSeeder } from '../services/sandboxes/sandboxes.js';
import type { GroupContext, RequestContext } from '../services/context.js';
import type { ApiKey } from '../domain/groups.js';
import type { Permission } from '../domain/permissions.js';
import type { RateLimitRule } from './rate-limit.js';
import type { UseCaseIo } from '../services/use-case.js';
import { ENV, envInteger } from '../config/env.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteAuth =
  | { kind: 'key'; anyOf: Permission[] } // API key of the path's group with one of these permissions
  | { kind: 'session' } // payment-link session token in Authorization
  | { kind: 'admin'; orKey?: Permission[] } // the sandbox admin token; with orKey, also a key of the path's group
  | { kind: 'public' };

/** The parameter names of a polka path: '/a/:x/b/:y' → 'x' | 'y'. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export interface RouteContext<Param extends string = string> {
  platform: Platform;
  /** The request context use cases run with. */
  ctx: RequestContext;
  /** The same context on routes with an API key: acting for the key's group. */
  groupCtx: GroupContext;
  /** The path's parameters, decoded: typed by the route's path (see `route`). */
  params: Record<Param, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  /** On a route with `upload`: the request body as it arrives (read it once). */
  upload?: AsyncIterable<Buffer>;
  headers: IncomingHttpHeaders;
  key?: ApiKey;
  /** The request carried the sandbox admin token. */
  admin?: boolean;
  /** The raw Authorization value on session routes. */
  authorization?: string;
  clientIp: string;
  /** Where this server is reachable (for links in responses and pages). */
  baseUrl: string;
  /** What fills a sandbox created with `demo` (handed to the server by its starter: src/dev is above http). */
  seedDemo?: DemoSeeder;
  /** Aborts when the client's connection closes or the server shuts down (made on first read). */
  readonly signal: AbortSignal;
}

/** A response other than a JSON 200: a status, a content type, raw bytes. */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: Record<string, string>,
  ) {}
}

/** What a streaming answer writes to: the raw request and response, the server's settings. */
export interface StreamIo {
  req: IncomingMessage;
  res: ServerResponse;
  /** Aborts when the client goes away or the server shuts down: the stream then ends. */
  signal: AbortSignal;
  settings: Record<string, unknown>;
}

/**
 * A long-lived answer (Server-Sent Events): the dispatcher hands the connection to `run`
 * and the request lasts until it resolves (the access log records it then).
 */
export class StreamResponse {
  constructor(readonly run: (io: StreamIo) => Promise<void>) {}
}

/** A JSON response with a status other than the route's default. */
export class JsonResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export interface RouteDef<Path extends string = string> {
  method: Method;
  path: Path; // polka pattern: /api/v1/groups/:group_id/transaction
  summary: string;
  description?: string;
  tag: string;
  /** Operations the spec lists as "not shown" but a working platform needs. */
  extension?: boolean;
  auth: RouteAuth;
  body?: z.ZodType;
  /** The body is a file, streamed to the handler as it arrives (`upload` in its context) instead of JSON read whole: its content type and what it is. */
  upload?: { contentType: string; description: string };
  query?: z.ZodType;
  response?: z.ZodType;
  /** Success status (default 200). */
  status?: number;
  /** What the success answer means, for the OpenAPI document (default "Success"). */
  successDescription?: string;
  /** Other success statuses the handler answers (with a JsonResponse) and what each means. */
  otherStatuses?: Record<number, string>;
  /** The body of an other status where it is not `response` (a fork's 202: the copy still under way). */
  otherResponses?: Record<number, z.ZodType>;
  /** Non-JSON success content type, for the OpenAPI document. */
  produces?: string;
  /** A `text/event-stream` answer: what its messages carry, for the OpenAPI document. */
  stream?: { description: string; example: string; messages: Record<string, z.ZodType> };
  /** Request headers the route reads (beyond Authorization and Idempotency-Key): name → description. */
  requestHeaders?: Record<string, string>;
  /** Not part of the API document (hosted pages, /docs). */
  hidden?: boolean;
  /** Why this POST refuses Idempotency-Key (its answer carries secrets that are never stored). */
  noIdempotency?: string;
  /**
   * A health probe: answered without the dispatcher's own store reads (clock refresh,
   * configuration check), so it answers while the store does not.
   */
  probe?: boolean;
  /** What this route's 503 means, for the OpenAPI document (default: the server is shutting down). */
  unavailable?: string;
  /** Per-client-address limit checked before auth and body parsing (pay: both paths share one bucket). */
  rateLimit?: RateLimitRule;
  /** The sandbox whose faults apply when the path names no group (the public pay path: the link's group). */
  faultGroupOf?(ctx: RouteContext<PathParams<Path>>): Promise<string | undefined>;
  handler(ctx: RouteContext<PathParams<Path>>): Promise<unknown>;
}

/** A route whose handler reads its path's parameters by name, checked against the path. */
export function route<const Path extends string>(def: RouteDef<Path>): RouteDef {
  return def as unknown as RouteDef;
}

/**
 * Whether a sandbox's faults (docs/faults.md) can apply to a route: a group's own calls,
 * by key or session, on a path naming the group (or whose faultGroupOf finds it); never the admin routes.
 */
export const faultsApply = (r: Pick<RouteDef, 'auth' | 'path' | 'faultGroupOf'>): boolean =>
  r.auth.kind !== 'admin' && (r.path.includes(':group_id') || r.faultGroupOf !== undefined);

/**
 * A long operation's answer budget (PAYCTL_CLOCK_ANSWER_MS, PAYCTL_FORK_ANSWER_MS,
 * PAYCTL_IMPORT_ANSWER_MS; default 10 s): how long its request waits for the work before
 * answering 202 with the progress so far. A command has none: it waits for the whole work.
 */
export const answerBudget = (p: Platform, name: typeof ENV.clockAnswerMs | typeof ENV.forkAnswerMs | typeof ENV.importAnswerMs): UseCaseIo => ({
  answerWithinMs: envInteger(p.env, name),
});

export const keyAuth = (...anyOf: Permission[]): RouteAuth => ({ kind: 'key', anyOf });
export const publicAuth: RouteAuth = { kind: 'public' };
export const sessionAuth: RouteAuth = { kind: 'session' };
export const adminAuth: RouteAuth = { kind: 'admin' };
export const adminOrKey = (...orKey: Permission[]): RouteAuth => ({ kind: 'admin', orKey });
