// The dashboard (`/dashboard`, docs/dashboard.md): server-rendered pages over the same use
// cases as the API, for the operator who holds the admin token. This module is its front
// door: the Host check, the session (made from the admin token), the CSRF and Origin
// checks of every POST, then the view the path names; every answer carries the
// dashboard's headers (a Content-Security-Policy that allows only this server's scripts).
import type http from 'node:http';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { AppError } from '../../errors.js';
import type { Platform } from '../../services/platform.js';
import type { DemoSeeder } from '../../services/sandboxes/sandboxes.js';
import type { ServerRuntime } from '../runtime.js';
import { acceptsAdminToken } from '../admin-token.js';
import { readFresh } from '../pipeline/fresh.js';
import { clearedCookie, DASHBOARD_HEADERS, hostAllowed, originAllowed, sameSecret, sessionCookie, Sessions, type Session } from './guard.js';
import { html } from './html.js';
import { Download, Page, Redirect, Stream, type Answer } from './respond.js';
import { errorPage, loginPage } from './layout.js';
import { readForm } from './form.js';
import { ROUTES } from './routes.js';
import type { ViewContext } from './context.js';
import { serveAsset } from './assets.js';
import type { RouteDef } from '../route.js';

export interface DashboardDeps {
  platform: Platform;
  adminToken: string;
  runtime: ServerRuntime;
  /** What fills a sandbox made with demo data (handed in from above: src/dev is above http). */
  seedDemo?: DemoSeeder;
  /** The API's handler and routes ("send again": views/send-again.ts). */
  api?: { handler: (req: http.IncomingMessage, res: http.ServerResponse) => void; routes: readonly RouteDef[] };
}

export const isDashboardPath = (url: string | undefined): boolean => url === '/dashboard' || /^\/dashboard[/?]/.test(url ?? '');

/** The request handler of every /dashboard path. */
export function dashboardHandler(deps: DashboardDeps): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const sessions = new Sessions();
  return (req, res) => {
    deps.runtime.requestStarted();
    handle(deps, sessions, req, res)
      .catch((err: unknown) => {
        if (!res.headersSent) send(res, new Page(errorPage(err), statusOf(err)));
        else res.destroy();
      })
      .finally(() => deps.runtime.requestEnded());
  };
}

const statusOf = (err: unknown) => (err instanceof AppError ? err.status : 500);

async function handle(deps: DashboardDeps, sessions: Sessions, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { platform: p } = deps;
  if (!hostAllowed(req, p.publicUrl)) {
    // A foreign Host: a page on another site reaching this server by DNS rebinding.
    res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('This dashboard answers only at its own address (127.0.0.1 or localhost), not at the Host this request named.\n');
    return;
  }
  if (deps.runtime.shuttingDown) return send(res, new Page(html`<p>The server is shutting down.</p>`, 503));
  const url = new URL(req.url ?? '/dashboard', 'http://dashboard.invalid');
  if (url.pathname.startsWith('/dashboard/assets/')) return serveAsset(url.pathname.slice('/dashboard/assets/'.length), res);
  const method = req.method ?? 'GET';

  // The token link that `payctl serve` printed: the token becomes a session cookie, and the URL loses it.
  const token = url.searchParams.get('token');
  if (method === 'GET' && url.pathname === '/dashboard' && token !== null) {
    if (!(await acceptsAdminToken(deps.adminToken, token, p.db.shared))) return send(res, new Page(loginPage('That token is not this server’s admin token.'), 401));
    return startSession(res, sessions);
  }
  if (method === 'POST' && url.pathname === '/dashboard/login') {
    if (!originAllowed(req)) return send(res, new Page(errorPage(forbidden('a login from another page (its Origin is not this server)')), 403));
    const form = await readForm(req);
    if (!(await acceptsAdminToken(deps.adminToken, form.get('token') ?? '', p.db.shared))) {
      return send(res, new Page(loginPage('That token is not this server’s admin token.'), 401));
    }
    return startSession(res, sessions);
  }

  const session = sessions.find(req);
  if (!session) {
    if (method === 'GET' && url.pathname === '/dashboard') return send(res, new Page(loginPage()));
    if (method === 'GET') return send(res, new Redirect('/dashboard'));
    return send(res, new Page(errorPage(forbidden('no dashboard session: open the link payctl serve printed')), 401));
  }
  let form = new URLSearchParams();
  if (method === 'POST') {
    if (!originAllowed(req)) return send(res, new Page(errorPage(forbidden('this form was not sent from this server’s own page (Origin)')), 403));
    form = await readForm(req);
    if (!sameSecret(form.get('_csrf') ?? undefined, session.csrf)) {
      return send(res, new Page(errorPage(forbidden('the form’s CSRF token is missing or wrong: reload the page and try again')), 403));
    }
    if (url.pathname === '/dashboard/logout') {
      sessions.close(session.id);
      res.setHeader('Set-Cookie', clearedCookie);
      return send(res, new Redirect('/dashboard'));
    }
  }
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(url.pathname);
    if (!m) continue;
    await readFresh(p);
    const c: ViewContext = { p, req, url, form, session, params: decodeGroups(m.groups), runtime: deps.runtime, ...(deps.seedDemo ? { seedDemo: deps.seedDemo } : {}), ...(deps.api ? { api: deps.api.handler, routes: deps.api.routes } : {}) };
    const started = performance.now();
    const answer = await r.view(c);
    // The page's own time (the bench reads it): the view's reads and rendering, not the network.
    if (!res.headersSent) res.setHeader('Server-Timing', `view;dur=${(performance.now() - started).toFixed(2)}`);
    return send(res, answer, deps.runtime.closing);
  }
  send(res, new Page(errorPage(new AppError(404, 'not_found', `no dashboard page at ${url.pathname}`)), 404));
}

function decodeGroups(groups: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(groups ?? {})) {
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v; // a malformed escape stays as typed: the view then finds no such object (404)
    }
  }
  return out;
}

const forbidden = (why: string) => new AppError(403, 'permission_error', `Refused: ${why}.`);

function startSession(res: http.ServerResponse, sessions: Sessions): void {
  const s: Session = sessions.open();
  res.setHeader('Set-Cookie', sessionCookie(s));
  send(res, new Redirect('/dashboard'));
}

async function send(res: http.ServerResponse, answer: Answer, closing?: AbortSignal): Promise<void> {
  if (answer instanceof Page) {
    res.writeHead(answer.status, DASHBOARD_HEADERS);
    res.end(answer.body.text);
  } else if (answer instanceof Redirect) {
    res.writeHead(303, { ...DASHBOARD_HEADERS, Location: answer.location });
    res.end();
  } else if (answer instanceof Download) {
    res.writeHead(200, {
      'Content-Type': answer.contentType,
      'Content-Disposition': `attachment; filename="${answer.filename.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    if (typeof answer.body === 'string' || Buffer.isBuffer(answer.body)) return void res.end(answer.body);
    // A browser that goes away mid-file never drains: its close ends the download (else the request would never end, nor a server's close).
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    try {
      for await (const chunk of answer.body) {
        if (gone.signal.aborted) break;
        if (!res.write(chunk)) await once(res, 'drain', { signal: gone.signal }).catch(() => undefined);
      }
    } finally {
      res.end();
    }
  } else if (answer instanceof Stream) {
    const ac = new AbortController();
    const end = () => ac.abort();
    res.once('close', end);
    closing?.addEventListener('abort', end, { once: true });
    try {
      await answer.run(res.req, res, ac.signal);
    } finally {
      // The server's closing signal outlives every stream: a listener left on it would pile up.
      closing?.removeEventListener('abort', end);
    }
  }
}
