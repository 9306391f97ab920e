// A TCP proxy in front of the test's PostgreSQL server: the store's faults on demand.
// `stop()` is the server gone (open connections reset, new ones refused), `start()` it
// back on the same port; `onCommit` drops a connection at its COMMIT (sent on, or not),
// so a write whose COMMIT goes unanswered can be made at will.
import net from 'node:net';
import { listenOn, listenOnFixedPort } from './fixed-port.js';

/** What to do with a connection whose client sends COMMIT: send it on then cut the connection (committed), or cut it first (not). */
export type CommitFault = 'after' | 'before' | undefined;

/** ReadyForQuery, idle: 'Z', length 5, 'I'. */
const READY_FOR_QUERY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
/** The ErrorResponse of a backend ended by pg_terminate_backend. */
const TERMINATED = errorResponse({ S: 'FATAL', V: 'FATAL', C: '57P01', M: 'terminating connection due to administrator command' });

function errorResponse(fields: Record<string, string>): Buffer {
  const body = Buffer.concat([...Object.entries(fields).map(([k, v]) => Buffer.from(`${k}${v}\0`)), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  /** The next COMMIT seen (once) is cut this way. */
  onCommit: CommitFault;
  /**
   * The next new connection (once) is ended by the server as soon as it is ready: its
   * first ReadyForQuery arrives with, in the same packet, the FATAL a backend ended by
   * pg_terminate_backend sends (57P01), and the connection closes.
   */
  endNextAtReady = false;

  constructor(private readonly target: { host: string; port: number }) {}

  /** `url` (a postgres:// URL of the target) through this proxy. */
  url(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Listen: on a port below the ephemeral range the first time (fixed-port.ts), on the same port again after `stop()`. */
  async start(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    if (this.port === 0) this.port = await listenOnFixedPort(server);
    else await listenOn(server, this.port);
    this.server = server;
  }

  /** Refuse new connections and reset the open ones. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    // Once a COMMIT is cut after it was sent on, the server's answer to it (proof it committed) ends the client's connection instead.
    let cutAfterCommit = false;
    let endAtReady = this.endNextAtReady;
    this.endNextAtReady = false;
    upstream.on('data', (chunk: Buffer) => {
      if (cutAfterCommit) return client.resetAndDestroy();
      if (endAtReady && chunk.includes(READY_FOR_QUERY)) {
        endAtReady = false;
        client.end(Buffer.concat([chunk, TERMINATED]));
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('data', (chunk) => {
      // A simple-query COMMIT: 'Q', its length, "COMMIT\0".
      const fault = this.onCommit;
      if (fault && chunk.includes('COMMIT\0')) {
        this.onCommit = undefined;
        if (fault === 'after') {
          cutAfterCommit = true;
          upstream.write(chunk);
        } else client.resetAndDestroy();
        return;
      }
      upstream.write(chunk);
    });
  }
}
