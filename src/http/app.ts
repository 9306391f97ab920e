// The HTTP server: polka routing over the route table, every route's request through the
// one pipeline (pipeline/dispatch.ts: clock refresh, rate limit, authentication, body,
// fault injection, Idempotency-Key, the answer, the access log) so routes stay one-line
// handlers, and the runtime (runtime.ts: listening, background work, draining close).
import http from 'node:http';
import polka from 'polka';
import type { Platform } from '../services/platform.js';
import type { DemoSeeder } from '../services/sandboxes/sandboxes.js';
import { allRoutes } from './routes/index.js';
import { openAccessLog } from './access-log.js';
import { RateLimits } from './rate-limit.js';
import { newAdminToken, shareAdminToken } from './admin-token.js';
import { answerClientErrors } from './client-error.js';
import { answerNoRoute, dispatcher } from './pipeline/dispatch.js';
import type { Pipeline, Req } from './pipeline/exchange.js';
import { ServerRuntime } from './runtime.js';
import { isScrape, Metrics, serveMetrics } from './metrics.js';
import { storeWatch } from '../services/store-watch.js';
import { flushJournal } from '../services/journal/writer.js';
import { dashboardHandler, isDashboardPath } from './dashboard/index.js';

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
  /** `GET /metrics` (Prometheus text): on this server's port (`true`), or on a port of its own (a number; 0 picks one). Off when absent. */
  metrics?: true | number;
  /** How long a close waits for requests still running before it closes their connections (ms; default DRAIN_MS, 10 s). */
  drainMs?: number;
  /** What fills a sandbox created with `demo: true` (src/dev/demo.ts's seedDemoInGroup, handed in from above); without it `demo` is refused. */
  seedDemo?: DemoSeeder;
}

export interface RunningServer {
  url: string;
  /** The dashboard's sign-in link (the admin token in it, exchanged for a session cookie on opening). */
  dashboardUrl: string;
  /** The sandbox admin token this server accepts. */
  adminToken: string;
  server: http.Server;
  /** Where the metrics are scraped, when on. */
  metricsUrl?: string;
  close(): Promise<void>;
}

interface PolkaApp {
  add(method: string, pattern: string, handler: (req: Req, res: http.ServerResponse) => void): PolkaApp;
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { platform } = opts;
  const settings = opts.settings ?? {};
  const log = openAccessLog(opts.accessLog ?? 'off');
  const rateLimits = new RateLimits(settings, Date.now, platform.db.shared);
  const adminToken = opts.adminToken || newAdminToken();
  const releaseAdminToken = await shareAdminToken(adminToken, platform.db.shared);
  const runtime = new ServerRuntime(platform, opts.tickMs ?? 1000, opts.drainMs);
  const metrics = opts.metrics === undefined ? undefined : new Metrics(platform, storeWatch(platform.db));
  const pipeline: Pipeline = { platform, log, rateLimits, adminToken, trustProxy: opts.trustProxy ?? false, settings, inFlightKeys: new Set(), runtime, ...(metrics ? { metrics } : {}), ...(opts.seedDemo ? { seedDemo: opts.seedDemo } : {}) };

  const routes = allRoutes();
  const app = (polka as unknown as (o: object) => PolkaApp)({ onNoMatch: answerNoRoute(pipeline, routes) });
  for (const route of routes) app.add(route.method, route.path, dispatcher(pipeline, route));
  // A scrape on the API's port goes around the pipeline: it reads no store and counts in no figure.
  const scrapeHere = metrics && opts.metrics === true ? metrics : undefined;
  // The dashboard's pages (dashboard/index.ts) have their own guard (session, CSRF, Host), not the API's pipeline.
  const dashboard = dashboardHandler({ platform, adminToken, runtime, ...(opts.seedDemo ? { seedDemo: opts.seedDemo } : {}), api: { handler: app.handler, routes } });
  const api = scrapeHere ? (req: http.IncomingMessage, res: http.ServerResponse) => (isScrape(req) ? void scrapeHere.serve(res) : app.handler(req, res)) : app.handler;
  const server = http.createServer((req, res) => (isDashboardPath(req.url) ? dashboard(req, res) : api(req, res)));
  answerClientErrors(server);
  server.keepAliveTimeout = 5000;

  const host = opts.host ?? '127.0.0.1';
  const baseUrl = await runtime.listen(server, opts.port ?? 0, host);
  const ownPort = metrics && typeof opts.metrics === 'number' ? await serveMetrics(metrics, opts.metrics, host) : undefined;
  platform.publicUrl = opts.publicUrl?.replace(/\/$/, '') ?? baseUrl;
  runtime.startBackgroundWork();
  return {
    url: baseUrl,
    dashboardUrl: `${baseUrl}/dashboard?token=${encodeURIComponent(adminToken)}`,
    adminToken,
    server,
    ...(metrics ? { metricsUrl: ownPort?.url ?? `${baseUrl}/metrics` } : {}),
    async close() {
      await ownPort?.close();
      metrics?.close();
      await runtime.close();
      await flushJournal(platform);
      await releaseAdminToken();
      await log.close();
    },
  };
}
