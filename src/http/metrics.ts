// `GET /metrics`: the server's figures in Prometheus text format (prom-client), off unless
// `payctl serve --metrics` (on the API's port) or `--metrics-port N` (a port of its own).
// Labels are route templates (`/api/v1/groups/:group_id/transactions`), never ids, so the
// series stay few however many groups there are. A scrape reads counters kept in memory
// and never waits on the store (the pending deliveries are counted in the background,
// at most every PENDING_EVERY_MS), so it answers while the store is away too.
// docs/operations.md lists the figures and what to watch.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import type { Store } from '../store/interfaces/db.js';
import type { Platform } from '../services/platform.js';
import type { StoreWatch } from '../services/store-watch.js';
import { telemetry } from '../services/telemetry.js';
import { contextFor } from '../services/context.js';
import { execute } from '../services/use-case.js';
import { countPendingDeliveries } from '../services/webhooks/delivery.js';

const PENDING_EVERY_MS = 10_000;
/** Request durations: 1 ms to 10 s. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new client.Registry();
  private readonly requests: client.Counter<'route' | 'method' | 'status'>;
  private readonly duration: client.Histogram<'route' | 'method'>;
  private pending = 0;
  private readonly writeTimer: (ms: number) => void;
  private readonly webhookTimer: (ms: number) => void;
  private pendingAt = -Infinity;
  private counting = false;

  private readonly store: Store;

  constructor(
    private readonly platform: Platform,
    private readonly watch: StoreWatch,
  ) {
    const store = (this.store = platform.db);
    const registers = [this.registry];
    this.requests = new client.Counter({ name: 'payctl_http_requests_total', help: 'Requests answered, by route template, method and status', labelNames: ['route', 'method', 'status'], registers });
    this.duration = new client.Histogram({ name: 'payctl_http_request_duration_seconds', help: 'Time to answer a request, by route template and method', labelNames: ['route', 'method'], buckets: REQUEST_BUCKETS, registers });
    const writes = new client.Histogram({ name: 'payctl_store_write_duration_seconds', help: 'Store writes from queued to committed (or failed)', buckets: REQUEST_BUCKETS, registers });
    this.writeTimer = (ms) => writes.observe(ms / 1000);
    store.writeTimer = this.writeTimer;
    const attempts = new client.Histogram({ name: 'payctl_webhook_attempt_duration_seconds', help: 'Webhook attempts from sent to answered (or failed)', buckets: REQUEST_BUCKETS, registers });
    this.webhookTimer = (ms) => attempts.observe(ms / 1000);
    telemetry.webhookTimer = this.webhookTimer;
    // Figures kept elsewhere, read at each scrape.
    const gauge = (name: string, help: string, read: () => number) =>
      new client.Gauge({ name, help, registers, collect() { this.set(read()); } });
    const perLabel = (type: 'Gauge' | 'Counter', name: string, help: string, label: string, read: () => Iterable<[string, number]>) =>
      type === 'Gauge'
        ? new client.Gauge({ name, help, labelNames: [label], registers, collect() { for (const [value, n] of read()) this.labels(value).set(n); } })
        : new client.Counter({ name, help, labelNames: [label], registers, collect() {
            this.reset();
            for (const [value, n] of read()) this.labels(value).inc(n);
          } });
    gauge('payctl_store_up', '1 while the store answers, 0 while it is away (as this server last saw it)', () => (watch.away ? 0 : 1));
    gauge('payctl_store_write_queue', 'Store writes queued, not started yet', () => store.queuedWrites?.() ?? 0);
    perLabel('Counter', 'payctl_store_errors_total', 'Store outages met by requests and background work, by cause (store_unavailable answers, paused work)', 'cause', () => watch.errors);
    new client.Counter({ name: 'payctl_events_appended_total', help: 'Events committed to the event log by this server', registers, collect() {
      this.reset();
      this.inc(telemetry.eventsAppended);
    } });
    gauge('payctl_sse_clients', 'Event streams (SSE, payctl listen) open now', () => telemetry.sseClients);
    perLabel('Gauge', 'payctl_jobs_running', 'Catch-up runs and sandbox forks running in this server', 'job', () => Object.entries(telemetry.jobs));
    perLabel('Counter', 'payctl_webhook_attempts_total', 'Webhook attempts sent by this server, by outcome', 'outcome', () => Object.entries(telemetry.webhookAttempts));
    gauge('payctl_webhook_deliveries_pending', 'Webhook deliveries waiting to be delivered, of every group (counted at most every 10 s)', () => {
      this.countPending();
      return this.pending;
    });
  }

  /** A request answered: `route` is its template (or `(none)` when no route matched). */
  observe(route: string, method: string, status: number, seconds: number): void {
    this.requests.labels(route, method, String(status)).inc();
    this.duration.labels(route, method).observe(seconds);
  }

  /** The Prometheus text. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  /** Answer a scrape. */
  async serve(res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const body = await this.text();
    // What the scrape cost this server (the bench reads it: a round trip adds HTTP and the network).
    res.writeHead(200, { 'Content-Type': this.registry.contentType, 'Server-Timing': `scrape;dur=${(performance.now() - started).toFixed(3)}` });
    res.end(body);
  }

  /** Stop feeding the figures (the server closes). */
  close(): void {
    if (this.store.writeTimer === this.writeTimer) this.store.writeTimer = undefined;
    if (telemetry.webhookTimer === this.webhookTimer) telemetry.webhookTimer = undefined;
  }

  private countPending(): void {
    if (this.counting || performance.now() - this.pendingAt < PENDING_EVERY_MS || this.watch.away) return;
    this.counting = true;
    this.pendingAt = performance.now();
    execute(countPendingDeliveries, this.platform, contextFor(this.platform, undefined), {})
      .then((n) => (this.pending = n), (err: unknown) => this.watch.failed(err))
      .finally(() => (this.counting = false));
  }
}

/** A Prometheus scrape: GET /metrics (a query string is ignored). */
/** Where Prometheus scrapes (GET only); answered before the request pipeline, outside the route table. */
export const METRICS_PATH = '/metrics';
export const isScrape = (req: http.IncomingMessage): boolean => req.method === 'GET' && req.url?.split('?')[0] === METRICS_PATH;

/** `--metrics-port`: /metrics on a port of its own (anything else is a 404). */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (isScrape(req)) return void metrics.serve(res);
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: GET /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
