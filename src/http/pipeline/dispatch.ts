// The request pipeline: every route's request goes through the same named steps, in the
// order below, so routes stay one-line handlers. A step throws to answer with an error;
// the answer (or its absence) and the access log line are written here, once.
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { newId } from '../../lib/ids.js';
import { AppError, notFound, unavailable } from '../../errors.js';
import { allowedMethods, DOCS_PATH, docsRedirectPage, ROOT_PATHS } from './no-route.js';
import type { RouteDef } from '../route.js';
import { answer, CORS, dropAnswer, errorTypeOf, replay, sendError } from './answer.js';
import { authenticate, limitRate } from './admit.js';
import { readBody } from './request-body.js';
import { readFresh } from './fresh.js';
import { drawFault } from './fault.js';
import { claimKey, runRoute } from './idempotency.js';
import { bindRequestContext, routeContext, type Exchange, type Pipeline, type Req } from './exchange.js';
import { answeredBy, journalExchange, type Answered } from './record.js';
import type { RouteContext } from '../route.js';
import { outageAsAnswer } from './store-outage.js';
import { storeWatch } from '../../services/store-watch.js';
import { noteRequest } from '../../services/sandboxes/leases.js';
import { redactText } from '../../domain/sensitive.js';

/** The handler polka runs for `route`. */
export function dispatcher(p: Pipeline, route: RouteDef): (req: Req, res: http.ServerResponse) => Promise<void> {
  const cors = route.auth.kind === 'public' || route.auth.kind === 'session';
  return async (req, res) => {
    const ex: Exchange = { route, req, res, cors, requestId: newId(), started: performance.now(), raw: '', faultNote: null, errorType: null };
    p.runtime.requestStarted();
    let ctx: RouteContext | undefined;
    let answered: Answered | undefined;
    try {
      if (p.runtime.shuttingDown) throw unavailable();
      // Re-read the platform clock and the configuration counter (another process may have
      // changed either) alongside the rate limit and the body read; authentication awaits
      // it, and so does everything after the body. Probes read nothing.
      if (!route.probe) {
        ex.fresh = readFresh(p.platform);
        ex.fresh.catch(() => undefined); // awaited below: never an unhandled rejection
      }
      // Every answer, error or replay included, names its request: the same id the access
      // log records and the route's context carries (ctx.ctx.request.id).
      res.setHeader('Request-Id', ex.requestId);
      ctx = routeContext(p, ex);
      await limitRate(p, ex, ctx);
      await authenticate(p, ex, ctx);
      await readBody(ex, ctx);
      await ex.fresh;
      await drawFault(p, ex, ctx);
      const recorded = await claimKey(p, ex, ctx);
      if (recorded) {
        answered = recorded;
        return replay(res, recorded, cors);
      }
      bindRequestContext(ex, ctx);
      const outcome = await runRoute(p, ex, ctx);
      if ('replay' in outcome) {
        answered = outcome.replay;
        return replay(res, outcome.replay, cors);
      }
      answered = answeredBy(ex, outcome);
      if (ex.fault?.effect.action === 'timeout_after_commit') return await dropAnswer(res, ex.fault.effect.ms);
      await answer(p, ex, outcome.result);
    } catch (caught) {
      const err = outageAsAnswer(p, ex, caught);
      ex.errorType = errorTypeOf(err);
      answered = answeredBy(ex, { error: err });
      if (ex.fault?.effect.action === 'timeout_after_commit') await dropAnswer(res, ex.fault.effect.ms);
      else sendError(res, err, cors);
    } finally {
      ex.release?.();
      // A sandbox's time to live counts from its last request (no write here: services/sandboxes/leases.ts).
      const group = ctx?.key?.group_id ?? ctx?.params.group_id;
      if (group !== undefined) noteRequest(p.platform.db, group);
      const ms = performance.now() - ex.started;
      journalExchange(p, ex, ctx, answered, ms);
      logAccess(p, req, res.statusCode, ex.requestId, Math.round(ms * 100) / 100, ex.errorType, ex.faultNote);
      p.metrics?.observe(route.path, route.method, res.statusCode, ms / 1000);
      // Every request read the store (the clock at least): one that met no outage says it is there.
      if (ex.errorType !== 'store_unavailable') storeWatch(p.platform.db).succeeded();
      p.runtime.requestEnded();
    }
  };
}

/**
 * No route for the method and path: OPTIONS (a CORS preflight) is answered 204; a browser
 * at the root is sent to /docs; a path that has routes for other methods is a 405 with
 * `Allow`; anything else 404 (pipeline/no-route.ts).
 */
export function answerNoRoute(p: Pipeline, routes: readonly RouteDef[]): (req: Req, res: http.ServerResponse) => void {
  const allowed = allowedMethods(routes);
  return (req, res) => {
    const requestId = newId();
    res.setHeader('Request-Id', requestId);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      return res.end();
    }
    let status = 404;
    let errorType: string | null = 'not_found';
    const methods = allowed(req.path);
    if ((req.method === 'GET' || req.method === 'HEAD') && ROOT_PATHS.has(req.path)) {
      status = 302;
      errorType = null;
      res.writeHead(302, { Location: DOCS_PATH, 'Content-Type': 'text/html; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : docsRedirectPage());
    } else if (methods.length > 0) {
      status = 405;
      errorType = 'invalid_request';
      const allow = methods.join(', ');
      sendError(res, new AppError(405, 'invalid_request', `method ${req.method} is not allowed on ${req.path}: it answers ${allow}`, undefined, { Allow: allow }), false);
    } else sendError(res, notFound(`route ${req.method} ${req.path}`), false);
    logAccess(p, req, status, requestId, 0, errorType, null);
    p.metrics?.observe('(none)', req.method ?? '', status, 0);
  };
}

function logAccess(p: Pipeline, req: Req, status: number, requestId: string, durationMs: number, errorType: string | null, faultNote: string | null): void {
  const idem = req.headers['idempotency-key'];
  p.log.write({
    time: new Date().toISOString(),
    method: req.method ?? '',
    path: redactText(req.path),
    status,
    duration_ms: durationMs,
    ip: req.socket?.remoteAddress ?? '', // socket is null once a client's connection is destroyed (must not throw here)
    request_id: requestId,
    idempotency_key: typeof idem === 'string' ? redactText(idem) : null,
    error_type: errorType,
    ...(faultNote ? { fault: faultNote } : {}),
  });
}
