// What the request pipeline's steps share: the server's parts they use (`Pipeline`, one
// per server) and one request's record (`Exchange`, one per request), so each step is a
// function of both and the dispatcher reads as the list of steps.
import type http from 'node:http';
import type { Platform } from '../../services/platform.js';
import type { DemoSeeder } from '../../services/sandboxes/sandboxes.js';
import type { IdempotencyClaim } from '../../services/idempotency.js';
import { contextFor, type GroupContext } from '../../services/context.js';
import type { InjectedFault } from '../../domain/faults.js';
import type { AccessLog } from '../access-log.js';
import type { RateLimits } from '../rate-limit.js';
import type { RouteContext, RouteDef } from '../route.js';
import type { ServerRuntime } from '../runtime.js';
import type { Metrics } from '../metrics.js';
import { clientAddress } from '../client-ip.js';
import { connectionSignal } from './connection-signal.js';

/** A request as polka hands it to a route: its path, decoded query and path parameters. */
export type Req = http.IncomingMessage & { params: Record<string, string>; query: Record<string, string | string[]>; path: string };

/** The server's parts every request's steps use. */
export interface Pipeline {
  platform: Platform;
  log: AccessLog;
  rateLimits: RateLimits;
  /** The sandbox admin token this server accepts. */
  adminToken: string;
  trustProxy: boolean;
  /** Extra per-server settings read by routes (e.g. the pay rate limit). */
  settings: Record<string, unknown>;
  /** `scope \0 key` of the Idempotency-Keys whose request is running in this process. */
  inFlightKeys: Set<string>;
  /** Shutting down, the requests in flight, the listening address. */
  runtime: ServerRuntime;
  /** `GET /metrics` figures, when on (`payctl serve --metrics`). */
  metrics?: Metrics;
  /** What fills a sandbox created with `demo` (ServerOptions.seedDemo). */
  seedDemo?: DemoSeeder;
}

/** One request on its way through the steps: what the answer and the access log need. */
export interface Exchange {
  readonly route: RouteDef;
  readonly req: Req;
  readonly res: http.ServerResponse;
  readonly requestId: string;
  /** performance.now() at arrival. */
  readonly started: number;
  /** Public and session routes answer with CORS headers (hosted pages' scripts call them). */
  readonly cors: boolean;
  /** The body's text as received (the idempotency hash covers it); '' without a body. */
  raw: string;
  /** A sandbox's injected fault (Payctl-Fault): set before the route runs. */
  fault?: InjectedFault;
  /** The fault as the Payctl-Fault header and the access log say it. */
  faultNote: string | null;
  claim?: IdempotencyClaim;
  /** Frees this request's Idempotency-Key in this process. */
  release?: () => void;
  /** The error body's type, null for a success (for the access log). */
  errorType: string | null;
  /** The JSON text the answer sent, when it was a route's JSON result (the journal keeps the same text). */
  sentJson?: string;
  /** The request's read of the clock and configuration counter (fresh.ts), resolving to the configuration version; none for probes. */
  fresh?: Promise<number>;
}

/** The route's context before authentication: no group, no permissions, the decoded path parameters. */
export function routeContext(p: Pipeline, ex: Exchange): RouteContext {
  const { route, req } = ex;
  let signal: AbortSignal | undefined;
  return {
    platform: p.platform,
    ctx: contextFor(p.platform, undefined, { requestId: ex.requestId, permissions: [] }),
    get groupCtx(): GroupContext {
      throw new Error(`route ${route.method} ${route.path} has no API key, so no group context`);
    },
    params: decodeParams(req.params),
    query: req.query,
    body: undefined,
    headers: req.headers,
    clientIp: clientAddress(req, p.trustProxy),
    baseUrl: p.runtime.baseUrl,
    ...(p.seedDemo ? { seedDemo: p.seedDemo } : {}),
    // Made only for the routes that read it (a waiting list): no listener on every request.
    get signal() {
      return (signal ??= connectionSignal(ex.res, p.runtime.closing));
    },
  };
}

/** The request context the route runs with: the key's group on that group's clock, the claim, a forced outcome. */
export function bindRequestContext(ex: Exchange, ctx: RouteContext): void {
  const group = ctx.key?.group_id;
  ctx.ctx = contextFor(ctx.platform, group, {
    requestId: ex.requestId,
    permissions: ctx.key?.permissions ?? [],
    ...(ex.claim ? { idempotency: ex.claim } : {}),
    ...(ex.fault && 'outcome' in ex.fault.effect ? { forcedOutcome: ex.fault.effect.outcome } : {}),
  });
  if (group !== undefined) Object.defineProperty(ctx, 'groupCtx', { value: ctx.ctx as GroupContext });
}

function decodeParams(params: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}
