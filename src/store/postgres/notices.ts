// Commits of every server on the database, heard through LISTEN/NOTIFY on one dedicated
// connection (a pooled one would be handed to queries and stop listening). A write that
// appends events notifies `payctl_events` with their groups right behind its COMMIT, on
// the same connection (tx.ts PgTx.commit), so the notice comes after the commit. The
// notice is a wake-up, never the data: listeners re-read the event table. When the
// connection drops, notices sent meanwhile are lost, so listeners hear "everything may
// have changed" and the connection is made again, a little later each time.
import pg from 'pg';
import type { EventsNotice, StoreNotices } from '../interfaces/shared.js';

export const EVENTS_CHANNEL = 'payctl_events';
/** A notice's payload is at most 8000 bytes: past this, "some groups" is sent as every group. */
const MAX_PAYLOAD = 7_000;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

/** The payload naming the groups whose events a write appended (`*`: too many to name). */
export function eventsPayload(groups: Iterable<string>): string {
  const text = [...new Set(groups)].join(',');
  return text.length > MAX_PAYLOAD ? '*' : text;
}

function parse(payload: string | undefined): EventsNotice {
  return !payload || payload === '*' ? { all: true } : { groups: payload.split(',') };
}

export class PgNotices implements StoreNotices {
  private client: pg.Client | undefined;
  private connecting = false;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private closed = false;
  private readonly listeners = new Set<(n: EventsNotice) => void>();
  private listening: Promise<void> | undefined;
  private resolveListening: (() => void) | undefined;

  constructor(private readonly config: pg.ClientConfig) {}

  onEvents(fn: (n: EventsNotice) => void): () => void {
    this.listeners.add(fn);
    // Connected on first use: commands that never follow events open no extra connection.
    this.connect();
    return () => this.listeners.delete(fn);
  }

  /** Resolves once the connection listens (tests: a notice sent after this is heard). */
  ready(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connect();
    this.listening ??= new Promise((resolve) => (this.resolveListening = resolve));
    return this.listening;
  }

  /** Drop the connection as a network fault would (tests: the listeners re-read, the connection comes back). */
  dropForTest(): void {
    this.client?.emit('error', new Error('connection dropped (test)'));
  }

  private emit(n: EventsNotice): void {
    for (const fn of [...this.listeners]) fn(n);
  }

  private connect(): void {
    if (this.client || this.connecting || this.retry || this.closed) return;
    this.connecting = true;
    const client = new pg.Client({ ...this.config, keepAlive: true });
    let dead = false;
    const lost = () => {
      if (dead) return;
      dead = true;
      this.lost(client);
    };
    client.on('notification', (m) => {
      if (m.channel === EVENTS_CHANNEL) this.emit(parse(m.payload));
    });
    client.on('error', lost);
    client.on('end', lost);
    client
      .connect()
      .then(() => client.query(`LISTEN ${EVENTS_CHANNEL}`))
      .then(
        () => {
          this.connecting = false;
          if (dead) return;
          if (this.closed) return void client.end().catch(() => undefined);
          this.client = client;
          this.retryMs = RETRY_MIN_MS;
          this.resolveListening?.();
          this.listening = this.resolveListening = undefined;
          // Whatever was committed before LISTEN took hold was never announced: read it now.
          this.emit({ all: true });
        },
        () => {
          this.connecting = false;
          lost();
        },
      );
  }

  private lost(client: pg.Client): void {
    if (this.client === client) this.client = undefined;
    client.removeAllListeners('notification');
    client.on('error', () => undefined); // a late error of a dead connection must not throw
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.emit({ all: true });
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
