// The server's runtime, apart from what one request does: listening, the work it runs in
// the background (webhook deliveries, due work on a timer) and a close that drains. The
// request pipeline says when each request starts and ends, so a close answers new
// requests 503, ends long-lived answers, and waits for the requests still running — up to
// a deadline: a request stuck on a store that never answers must not hold a SIGTERM for good.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Platform } from '../services/platform.js';
import { configCache } from '../store/config-cache.js';
import { runDueWork } from '../services/clock/scheduler.js';
import { abandonCatchUps } from '../services/clock/catch-up.js';
import { deliverAllDue } from '../services/webhooks/delivery.js';
import { startDeliveryLoop, stopDeliveryLoop } from '../services/webhooks/delivery-loop.js';
import { storeWatch } from '../services/store-watch.js';

/** How long a close waits for the requests still running before it closes their connections (docs/operations.md, "Stopping"). */
export const DRAIN_MS = 10_000;

export class ServerRuntime {
  /** Set by close: new requests are answered 503. */
  shuttingDown = false;
  /** Where this server listens (for links in answers); set by listen. */
  baseUrl = '';
  private readonly closingController = new AbortController();
  private inFlight = 0;
  private drained?: () => void;
  private ticking = false;
  private timer?: NodeJS.Timeout;
  private catchUp: Promise<unknown> = Promise.resolve();
  private server?: http.Server;

  constructor(
    private readonly platform: Platform,
    /** How often due work runs on the platform clock (ms); 0 disables. */
    private readonly tickMs: number,
    private readonly drainMs = DRAIN_MS,
  ) {}

  /** Aborted at shutdown: long-lived answers (event streams) end, so the drain completes. */
  get closing(): AbortSignal {
    return this.closingController.signal;
  }

  requestStarted(): void {
    this.inFlight++;
  }

  requestEnded(): void {
    this.inFlight--;
    if (this.inFlight === 0 && this.drained) this.drained();
  }

  /** Listens on `host:port` (0: any free port); returns the base URL requests reach it at. */
  async listen(server: http.Server, port: number, host: string): Promise<string> {
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.baseUrl = `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown}:${address.port}`;
    return this.baseUrl;
  }

  /** Webhook deliveries and due work on the platform clock, until close. */
  startBackgroundWork(): void {
    const { platform } = this;
    // Deliveries are sent from here after each commit that appended events; the ones left
    // waiting by an earlier process (a kill -9 before it sent them) go at once.
    startDeliveryLoop(platform);
    this.catchUp = deliverAllDue(platform).catch(
      (err: unknown) => void (storeWatch(platform.db).failed(err) || process.stderr.write(`webhook delivery failed: ${String(err)}\n`)),
    );
    if (this.tickMs <= 0) return;
    // Due work on the platform clock (settlement, billing …) runs on a timer too.
    const watch = storeWatch(platform.db);
    this.timer = setInterval(() => {
      // While the store is away the work waits out its backoff (store-watch.ts), then tries again.
      if (this.ticking || this.shuttingDown || watch.paused()) return;
      this.ticking = true;
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
        .finally(() => (this.ticking = false));
    }, this.tickMs);
    this.timer.unref();
  }

  /** Stops taking requests, drains the ones in flight, then stops the background work. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) throw new Error('close before listen');
    this.shuttingDown = true;
    this.closingController.abort();
    if (this.timer) clearInterval(this.timer);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (this.inFlight > 0) {
      let deadline: NodeJS.Timeout | undefined;
      const drained = new Promise<boolean>((resolve) => (this.drained = () => resolve(true)));
      const late = new Promise<boolean>((resolve) => (deadline = setTimeout(() => resolve(false), this.drainMs)));
      const inTime = await Promise.race([drained, late]);
      clearTimeout(deadline);
      if (!inTime) process.stderr.write(`closing: ${this.inFlight} request(s) still running after ${this.drainMs / 1000} s; their connections are closed unanswered\n`);
    }
    server.closeAllConnections();
    await closed;
    while (this.ticking) await new Promise((r) => setTimeout(r, 10));
    // A group's catch-up still running stops at its next chunk (the database closes); the
    // rest is due work the next start's tick does.
    abandonCatchUps(this.platform.db);
    await this.catchUp;
    await stopDeliveryLoop(this.platform);
  }
}
