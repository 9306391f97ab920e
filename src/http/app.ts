// The HTTP server: polka routing over the route table, one dispatcher that does the
// shared work for every route (clock refresh, authentication, body parsing,
// Idempotency-Key, error mapping, access log) so routes stay one-line handlers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import polka from 'polka';
import { stringifyJson } from '../lib/exact-json.js';
import type { Platform } from '../services/platform.js';
import { AppError, authenticationError, validationError, notFound, permissionError, unavailable } from '../errors.js';
import { authenticateKey } from '../services/groups/keys.js';
import { readJsonBody } from './body.js';
import { faultsApply, JsonResponse, RawResponse, StreamResponse, type RouteContext, type RouteDef } from './route.js';
import type { Permission } from '../domain/permissions.js';
import { allRoutes } from './routes/index.js';
import { openAccessLog } from './access-log.js';
import { checkKey, findCompleted, IdempotencyClaim, IdempotentReplay, keyStillRunning, requestHash } from '../services/idempotency.js';
import { contextFor, type GroupContext } from '../services/context.js';
import { newId } from '../lib/ids.js';
import { configCache } from '../store/config-cache.js';
import { runDueWork } from '../services/clock/scheduler.js';
import { abandonCatchUps } from '../services/clock/catch-up.js';
import { clientAddress } from './client-ip.js';
import { RateLimits } from './rate-limit.js';
import { acceptsAdminToken, newAdminToken, shareAdminToken } from './admin-token.js';
import { isMissingReference } from '../store/errors.js';
import { withGroupClock } from '../services/platform.js';
import { deliverAllDue, startDeliveryLoop, stopDeliveryLoop } from '../services/webhooks/delivery.js';
import { injectFault, mayFault, mayFaultAnywhere } from '../services/faults/injector.js';
import { describeFault, operationOf, type InjectedFault } from '../domain/faults.js';
import { answerClientErrors } from './client-error.js';
import { storeUnavailable } from '../errors.js';
import { StoreUnavailable } from '../store/errors.js';
import { resolveUnknownCommit } from './store-outage.js';
import { storeWatch } from '../services/store-watch.js';

export interface ServerOptions {
  platform: Platform;
  port?: number;
  host?: string;
  /** Access log target: a file path, `-` for stderr, `off`. */
  accessLog?: string;
  /** How often the server runs due work on the platform clock (ms); 0 disables. */
  tickMs?: number;
  /** Trust X-Forwarded-For (only behind a proxy you run). */
  trustProxy?: boolean;
  /** Extra per-server settings read by routes (e.g. the pay rate limit). */
  settings?: Record<string, unknown>;
  /** The sandbox admin token; a random one when not given (read it from RunningServer). */
  adminToken?: string;
  /** The address page URLs are built with (behind a proxy); the listening address when not given. */
  publicUrl?: string;
}

export interface RunningServer {
  url: string;
  /** The sandbox admin token this server accepts. */
  adminToken: string;
  server: http.Server;
  close(): Promise<void>;
}

type Req = http.IncomingMessage & { params: Record<string, string>; query: Record<string, string | string[]>; path: string };

interface PolkaApp {
  add(method: string, pattern: string, handler: (req: Req, res: http.ServerResponse) => void): PolkaApp;
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, Idempotency-Key, Payctl-Simulate',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  // A page's script may read these answer headers (the request id to quote in a support question).
  'Access-Control-Expose-Headers': 'Request-Id, Idempotent-Replayed, Payctl-Fault, Retry-After, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset',
};

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { platform } = opts;
  const log = openAccessLog(opts.accessLog ?? 'off');
  const inFlightKeys = new Set<string>();
  let inFlight = 0;
  let shuttingDown = false;
  // Aborted at shutdown: long-lived answers (event streams) end, so the drain completes.
  const closing = new AbortController();
  let drained: (() => void) | undefined;
  let baseUrl = '';
  const rateLimits = new RateLimits(opts.settings ?? {}, Date.now, platform.db.shared);
  const adminToken = opts.adminToken || newAdminToken();
  const releaseAdminToken = await shareAdminToken(adminToken, platform.db.shared);

  /** A group API key of the path's group with one of `anyOf`; the route then runs on that group's clock. */
  const authorizeKey = async (ctx: RouteContext, authorization: string | undefined, anyOf: Permission[]) => {
    const key = await authenticateKey(platform, authorization);
    const groupId = ctx.params.group_id;
    if (groupId !== undefined && groupId !== key.group_id) throw permissionError('this API key belongs to another group');
    if (!anyOf.some((perm) => key.permissions.includes(perm))) {
      throw permissionError(`this API key lacks the ${anyOf.join(' or ')} permission`);
    }
    const { groupClockOffsetMs, ...info } = key;
    ctx.key = info;
    ctx.platform = withGroupClock(platform, key.group_id, groupClockOffsetMs);
  };

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': JSON_TYPE, ...headers });
    res.end(stringifyJson(body));
  };

  const sendError = (res: http.ServerResponse, err: unknown, cors: boolean): void => {
    if (err instanceof AppError) return send(res, err.status, err.toBody(), { ...(err.headers ?? {}), ...(cors ? CORS : {}) });
    if (isMissingReference(err)) {
      return sendError(res, new AppError(404, 'not_found', 'not found: the group of this request, or an object it names, was removed meanwhile'), cors);
    }
    // A bug: say so without internals; the operator sees the stack on stderr.
    process.stderr.write(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    send(res, 500, { error: { type: 'internal_error', message: 'internal error; the server log has details' } });
  };

  const dispatch = (route: RouteDef) => async (req: Req, res: http.ServerResponse) => {
    const started = performance.now();
    const requestId = newId();
    let errorType: string | null = null;
    // A sandbox's injected fault (Payctl-Fault): set before the route runs, marked on the answer and in the log.
    let fault: InjectedFault | undefined;
    let faultNote: string | null = null;
    inFlight++;
    const cors = route.auth.kind === 'public' || route.auth.kind === 'session';
    let released: (() => void) | undefined;
    try {
      if (shuttingDown) throw unavailable();
      // Re-read the platform clock (another process may have moved it) alongside
      // authentication and the body read; it is awaited before the route runs. One
      // sequential database round trip fewer per request.
      const clockRefreshed = platform.clock.refresh();
      clockRefreshed.catch(() => undefined); // awaited below: never an unhandled rejection
      // Every answer, error or replay included, names its request: the same id the access
      // log records and the route's context carries (ctx.ctx.request.id).
      res.setHeader('Request-Id', requestId);
      const ctx: RouteContext = {
        platform,
        ctx: contextFor(platform, undefined, { requestId, permissions: [] }),
        get groupCtx(): GroupContext {
          throw new Error(`route ${route.method} ${route.path} has no API key, so no group context`);
        },
        params: decodeParams(req.params),
        query: req.query,
        body: undefined,
        headers: req.headers,
        clientIp: clientAddress(req, opts.trustProxy ?? false),
        baseUrl,
      };
      if (route.rateLimit) {
        // Every attempt counts (before auth), so failures cannot be retried for free.
        const limitHeaders = await rateLimits.consume(route.rateLimit, ctx.clientIp);
        for (const [name, value] of Object.entries(limitHeaders)) res.setHeader(name, value);
      }
      const authorization = req.headers.authorization;
      if (route.auth.kind === 'key') {
        await authorizeKey(ctx, authorization, route.auth.anyOf);
      } else if (route.auth.kind === 'admin') {
        if (await acceptsAdminToken(adminToken, authorization, platform.db.shared)) ctx.admin = true;
        else if (route.auth.orKey) await authorizeKey(ctx, authorization, route.auth.orKey);
        else {
          if (!authorization) throw authenticationError('missing Authorization header: send the sandbox admin token that payctl serve printed');
          // A valid group key is refused as such (403); anything else is unknown (401).
          await authenticateKey(platform, authorization).catch(() => {
            throw authenticationError('unknown admin token: send the sandbox admin token that payctl serve printed');
          });
          throw permissionError("sandbox routes take the sandbox admin token, not a group's API key");
        }
      } else if (route.auth.kind === 'session') {
        ctx.authorization = authorization;
      }
      // Key authentication checked the cached groups, processors and keys; other routes check them here.
      if (!ctx.key) await configCache(platform.db).check(platform.db);
      let raw = '';
      if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') {
        const parsed = await readJsonBody(req);
        raw = parsed.raw;
        ctx.body = parsed.value;
        // A route without a body shape takes none: fields sent anyway are refused by name
        // (no mass assignment), an empty body or {} is fine.
        if (!route.body) refuseBody(parsed.value);
      } else {
        req.resume();
      }
      await clockRefreshed;

      // Faults apply to a group's own calls (key or session routes naming it), never to admin routes.
      const simulate = req.headers['payctl-simulate'];
      let faultGroup = faultsApply(route) ? (ctx.key?.group_id ?? ctx.params.group_id) : undefined;
      if (faultGroup === undefined && route.faultGroupOf && mayFaultAnywhere(platform.db, simulate !== undefined)) {
        faultGroup = await route.faultGroupOf(ctx);
      }
      if (faultGroup !== undefined && mayFault(platform.db, faultGroup, simulate !== undefined)) {
        fault = await injectFault(ctx.platform, {
          groupId: faultGroup,
          method: route.method,
          path: req.path,
          operation: operationOf(route.method, route.path, ctx.body),
          ...(simulate !== undefined ? { simulate: String(simulate) } : {}),
        });
        if (fault) {
          faultNote = describeFault(fault);
          res.setHeader('Payctl-Fault', faultNote);
          const e = fault.effect;
          if (e.action === 'latency') await sleep(e.ms);
          // Answered before anything is done: no idempotency record, no object, no event.
          if (e.action === 'error') throw injectedError(e.status, e.retry_after, faultNote);
        }
      }

      // The request context: the key's group on that group's clock (authorizeKey set the view).
      const group = ctx.key?.group_id;
      const idemHeader = req.headers['idempotency-key'];
      if (route.noIdempotency && idemHeader !== undefined) {
        throw validationError([{ path: 'Idempotency-Key', message: `is not accepted here: ${route.noIdempotency}` }]);
      }
      let claim: IdempotencyClaim | undefined;
      if (route.method === 'POST' && typeof idemHeader === 'string') {
        checkKey(idemHeader);
        const scope = group ?? 'public';
        const flightKey = `${scope}\u0000${idemHeader}`;
        const running = keyStillRunning;
        // Before the lookup: a request still settling its answer is running, not replayable yet.
        if (inFlightKeys.has(flightKey)) throw running();
        const hash = requestHash(route.method, req.path, raw);
        const done = await findCompleted(platform.db, scope, idemHeader, hash);
        if (done) return replay(res, done.status, done.body, cors);
        // Again after it, with the claim in the same tick: of two first requests, one runs.
        if (inFlightKeys.has(flightKey)) throw running();
        claim = new IdempotencyClaim(scope, idemHeader, hash, route.status ?? 200, ctx.platform.clock);
        inFlightKeys.add(flightKey);
        released = () => inFlightKeys.delete(flightKey);
      }
      ctx.ctx = contextFor(ctx.platform, group, {
        requestId,
        permissions: ctx.key?.permissions ?? [],
        ...(claim ? { idempotency: claim } : {}),
        ...(fault && 'outcome' in fault.effect ? { forcedOutcome: fault.effect.outcome } : {}),
      });
      if (group !== undefined) Object.defineProperty(ctx, 'groupCtx', { value: ctx.ctx as GroupContext });

      let result: unknown;
      try {
        result = await route.handler(ctx);
      } catch (err) {
        if (err instanceof IdempotentReplay) return replay(res, err.record.status, err.record.body, cors);
        // The COMMIT of the write holding the key went unanswered: what was saved, if it was.
        if (claim?.outcomeUnknown && err instanceof StoreUnavailable) {
          const found = await resolveUnknownCommit(platform.db, { scope: claim.scope, key: claim.key, hash: requestHash(route.method, req.path, raw) }, err);
          if (found instanceof StoreUnavailable) throw found;
          return replay(res, found.status, found.body, cors);
        }
        // The work committed, then the request failed: a retry gets this same failure.
        if (claim && err instanceof AppError) await claim.settle(platform.db, { status: err.status, body: err.toBody() });
        throw err;
      }
      if (claim && !(result instanceof RawResponse) && !(result instanceof StreamResponse)) {
        const answer = result instanceof JsonResponse ? result : { status: route.status ?? 200, body: result };
        await claim.settle(platform.db, { status: answer.status, body: answer.body });
      }
      if (fault?.effect.action === 'timeout_after_commit') return await dropAnswer(res, fault.effect.ms);

      if (result instanceof StreamResponse) {
        await result.run({ req, res, signal: connectionSignal(res, closing.signal), settings: opts.settings ?? {} });
      } else if (result instanceof RawResponse) {
        res.writeHead(result.status, { ...(cors ? CORS : {}), ...result.headers });
        res.end(result.body);
      } else if (result instanceof JsonResponse) {
        send(res, result.status, result.body, cors ? CORS : {});
      } else {
        send(res, route.status ?? 200, result, cors ? CORS : {});
      }
    } catch (caught) {
      // A store outage is a 503 with Retry-After (store-outage.ts), and pauses background work.
      const outage = storeWatch(platform.db).failed(caught);
      const err = outage ? storeUnavailable(outage, req.headers['idempotency-key'] !== undefined) : caught;
      errorType = err instanceof AppError ? err.type : isMissingReference(err) ? 'not_found' : 'internal_error';
      if (fault?.effect.action === 'timeout_after_commit') await dropAnswer(res, fault.effect.ms);
      else sendError(res, err, cors);
    } finally {
      released?.();
      const idem = req.headers['idempotency-key'];
      log.write({
        time: new Date().toISOString(),
        method: req.method ?? '',
        path: req.path,
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        ip: req.socket?.remoteAddress ?? '', // socket is null once a client's connection is destroyed (must not throw here)
        request_id: requestId,
        idempotency_key: typeof idem === 'string' ? idem : null,
        error_type: errorType,
        ...(faultNote ? { fault: faultNote } : {}),
      });
      inFlight--;
      if (inFlight === 0 && drained) drained();
    }
  };

  // The recorded answer's value, sent as JSON text again: the same text the first answer sent.
  const replay = (res: http.ServerResponse, status: number, body: unknown, cors: boolean) => {
    res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Idempotent-Replayed': 'true', ...(cors ? CORS : {}) });
    res.end(stringifyJson(body));
  };

  const app = (polka as unknown as (o: object) => PolkaApp)({
    onNoMatch: (req: Req, res: http.ServerResponse) => {
      const requestId = newId();
      res.setHeader('Request-Id', requestId);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        return res.end();
      }
      sendError(res, notFound(`route ${req.method} ${req.path}`), false);
      const idem = req.headers['idempotency-key'];
      log.write({
        time: new Date().toISOString(), method: req.method ?? '', path: req.path, status: 404, duration_ms: 0, ip: req.socket?.remoteAddress ?? '',
        request_id: requestId, idempotency_key: typeof idem === 'string' ? idem : null, error_type: 'not_found',
      });
    },
  });
  for (const route of allRoutes()) app.add(route.method, route.path, dispatch(route));

  const server = http.createServer(app.handler);
  answerClientErrors(server);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
  platform.publicUrl = opts.publicUrl?.replace(/\/$/, '') ?? baseUrl;

  // Webhook deliveries are sent from here after each commit that appended events; the
  // ones left waiting by an earlier process (a kill -9 before it sent them) go at once.
  startDeliveryLoop(platform);
  const catchUp = deliverAllDue(platform).catch((err: unknown) => process.stderr.write(`webhook delivery failed: ${String(err)}\n`));

  // Due work on the platform clock (settlement, billing …) runs on a timer too.
  const watch = storeWatch(platform.db);
  let ticking = false;
  const timer =
    (opts.tickMs ?? 1000) > 0
      ? setInterval(() => {
          // While the store is away the work waits out its backoff (store-watch.ts), then tries again.
          if (ticking || shuttingDown || watch.paused()) return;
          ticking = true;
          // The cached groups, processors and keys are checked by requests; a server no
          // request reaches checks them here, so its due work and deliveries never act on
          // rows another server or command changed.
          configCache(platform.db)
            .check(platform.db)
            .then(() => runDueWork(platform))
            .then(
              () => watch.succeeded(),
              (err: unknown) => void (watch.failed(err) || process.stderr.write(`scheduled work failed: ${String(err)}\n`)),
            )
            .finally(() => (ticking = false));
        }, opts.tickMs ?? 1000)
      : undefined;
  timer?.unref();

  return {
    url: baseUrl,
    adminToken,
    server,
    async close() {
      shuttingDown = true;
      closing.abort();
      if (timer) clearInterval(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      server.closeAllConnections();
      await closed;
      while (ticking) await new Promise((r) => setTimeout(r, 10));
      // A group's catch-up still running stops at its next chunk (the database closes); the
      // rest is due work the next start's tick does.
      abandonCatchUps(platform.db);
      await catchUp;
      await stopDeliveryLoop(platform);
      await releaseAdminToken();
      await log.close();
    },
  };
}

/** Aborts when the server shuts down or the client's connection closes. */
function connectionSignal(res: http.ServerResponse, closing: AbortSignal): AbortSignal {
  const ac = new AbortController();
  const abort = () => ac.abort();
  if (closing.aborted || res.destroyed) abort();
  closing.addEventListener('abort', abort, { once: true });
  res.once('close', abort); // also when the client goes away
  ac.signal.addEventListener('abort', () => closing.removeEventListener('abort', abort), { once: true });
  return ac.signal;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A `timeout_after_commit` fault: the work is committed; hold the connection, then close it without an answer. */
async function dropAnswer(res: http.ServerResponse, holdMs: number): Promise<void> {
  if (holdMs > 0) await sleep(holdMs);
  res.destroy();
}

/** An injected `error` fault: the platform's error body for that status. */
function injectedError(status: number, retryAfter: number | undefined, note: string): AppError {
  const type = status === 429 ? 'rate_limited' : status === 500 ? 'internal_error' : 'unavailable';
  const headers = retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : undefined;
  return new AppError(status, type, `injected fault (Payctl-Fault: ${note}); nothing was done, retry`, undefined, headers);
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

function refuseBody(value: unknown): void {
  if (value === undefined) return;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return;
    throw validationError(keys.map((key) => ({ path: key, message: 'is not a field of this request (this operation takes no body)' })));
  }
  throw validationError([{ path: '(body)', message: 'this operation takes no body' }]);
}
