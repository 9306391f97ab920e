// The HTTP/1.1 client of webhook deliveries: a POST with a small JSON body to a receiver,
// over keep-alive connections pooled per origin (one request at a time on each, no
// pipelining), reading the status and the first bytes of the answer. It exists because a
// delivery's CPU is the bench's limit: node:http's ClientRequest costs ~44 µs of CPU per
// request on the bench machine, this client ~9 µs (the request is one string written
// once; the answer is parsed for what a delivery keeps). It speaks what receivers
// answer: Content-Length, chunked, or close-delimited bodies, 1xx interim heads,
// `Connection: close`, and TLS for https URLs (certificates verified as node:https does).
//
// Receivers are untrusted: every part of an answer is bounded by the caller's limits
// (AnswerLimits; the deliveries pass RECEIVER_LIMITS of src/domain/webhooks.ts): connect
// time, the whole answer's time, status line, headers in bytes and lines, chunk-size
// lines, trailers, body, checked on the bytes as they arrive, so an answer that never
// ends costs at most the bound; breaking one ends the attempt with an error naming it.
// Connections are pooled per `pool` key (the delivery passes the endpoint), so one
// endpoint's hanging connections never hold another's.
import net from 'node:net';
import tls from 'node:tls';
import { Bound, readAnswer, type AnswerConn, type AnswerReading, type AnswerState } from './http1-answer.js';

export type { AnswerLimits } from './http1-answer.js';

export interface PostResult {
  status?: number;
  /** The first `keepBytes` of the answer's body, as UTF-8 text. */
  body: string | null;
  error?: string;
}

/** The answer's bounds and what of its body is kept (AnswerReading), and the post's time and pool. */
export interface PostOptions extends AnswerReading {
  /** For the whole answer, from when the request is sent for. */
  timeoutMs: number;
  /** For connecting (DNS, TCP, TLS), within timeoutMs; default limits.connectMs. */
  connectTimeoutMs?: number;
  /** Connections are pooled per pool and origin (default: per origin). */
  pool?: string;
}

/** Connections per pool and origin, at most (more requests wait for one to be free). */
const MAX_SOCKETS = 64;
/** An idle connection is closed after this long (receivers commonly close theirs after 5 s). */
const IDLE_MS = 4_000;
const USER_AGENT = 'payctl-webhooks/1';

interface Target {
  origin: Origin;
  /** The request line and the headers every POST to this URL carries. */
  head: string;
}

interface Origin {
  secure: boolean;
  host: string;
  port: number;
  idle: Conn[];
  open: number;
  waiting: Array<(c: Conn | undefined) => void>;
}

const origins = new Map<string, Origin>();
const targets = new Map<string, Target>();

function target(url: string, pool: string): Target {
  const cacheKey = `${pool} ${url}`;
  let t = targets.get(cacheKey);
  if (t) return t;
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported protocol ${u.protocol}`);
  const secure = u.protocol === 'https:';
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const port = Number(u.port) || (secure ? 443 : 80);
  const key = `${pool} ${u.protocol}//${host}:${port}`;
  let origin = origins.get(key);
  if (!origin) origins.set(key, (origin = { secure, host, port, idle: [], open: 0, waiting: [] }));
  let head = `POST ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUser-Agent: ${USER_AGENT}\r\nContent-Type: application/json\r\n`;
  if (u.username || u.password) {
    const credentials = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
    head += `Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n`;
  }
  if (targets.size > 10_000) targets.clear();
  targets.set(cacheKey, (t = { origin, head }));
  return t;
}

/**
 * POST `body` to `url` with `headers` (values without CR/LF); resolves with the status and
 * the kept start of the answer, or why there is none. Never rejects.
 */
export async function post(url: string, body: string, headers: Record<string, string>, o: PostOptions): Promise<PostResult> {
  let t: Target;
  try {
    t = target(url, o.pool ?? '');
  } catch (err) {
    return { body: null, error: `cannot send: ${(err as Error).message}` };
  }
  let text = t.head;
  for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
  text += `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const deadline = Date.now() + o.timeoutMs;
  const conn = await acquire(t.origin, deadline);
  if (!conn) return { body: null, error: `timed out after ${o.timeoutMs} ms waiting for a connection` };
  const r = await conn.exchange(text, deadline, o);
  // A kept-alive connection the receiver closed meanwhile fails before any answer: once more on a new one.
  if (r === RETRY) {
    const fresh = await acquire(t.origin, deadline, true);
    if (!fresh) return { body: null, error: `timed out after ${o.timeoutMs} ms waiting for a connection` };
    const again = await fresh.exchange(text, deadline, o);
    return again === RETRY ? { body: null, error: 'ECONNRESET: the connection closed before an answer' } : again;
  }
  return r;
}

const RETRY = Symbol('retry');

function acquire(origin: Origin, deadline: number, fresh = false): Promise<Conn | undefined> {
  if (!fresh) {
    const idle = origin.idle.pop();
    if (idle) return Promise.resolve(idle.take());
  }
  if (origin.open < MAX_SOCKETS) return Promise.resolve(new Conn(origin));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      const i = origin.waiting.indexOf(give);
      if (i >= 0) origin.waiting.splice(i, 1);
      resolve(undefined);
    }, Math.max(0, deadline - Date.now()));
    const give = (c: Conn | undefined) => {
      clearTimeout(timer);
      resolve(c);
    };
    origin.waiting.push(give);
  });
}

/** A kept-alive connection is free: to the next waiting request, else idle. */
function released(origin: Origin, conn: Conn): void {
  const next = origin.waiting.shift();
  if (next) next(conn.take());
  else conn.park();
}

interface Exchange extends AnswerState {
  resolve(r: PostResult | typeof RETRY): void;
  timer: NodeJS.Timeout;
  connectTimer: NodeJS.Timeout | undefined;
  o: PostOptions;
}

class Conn implements AnswerConn {
  private readonly socket: net.Socket;
  private ex: Exchange | undefined;
  /** Requests sent on this connection (a failure before the first answer on a reused one is retried). */
  private used = 0;
  private closed = false;
  private connected = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly origin: Origin) {
    origin.open++;
    this.socket = origin.secure
      ? tls.connect({ host: origin.host, port: origin.port, servername: net.isIP(origin.host) ? undefined : origin.host, ALPNProtocols: ['http/1.1'] })
      : net.connect({ host: origin.host, port: origin.port });
    this.socket.setNoDelay(true);
    this.socket.once(origin.secure ? 'secureConnect' : 'connect', () => {
      this.connected = true;
      if (this.ex?.connectTimer) clearTimeout(this.ex.connectTimer);
    });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err: NodeJS.ErrnoException) => this.onEnd(err.code ? `${err.code}: ${err.message}` : err.message));
    this.socket.on('close', () => this.onEnd('ECONNRESET: the connection closed before the answer was complete'));
  }

  /** Out of the idle list, for one request. */
  take(): Conn {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.socket.ref();
    return this;
  }

  /** Into the idle list (it does not keep the process alive). */
  park(): void {
    this.socket.unref();
    this.idleTimer = setTimeout(() => this.socket.destroy(), IDLE_MS);
    this.idleTimer.unref();
    this.origin.idle.push(this);
  }

  exchange(text: string, deadline: number, o: PostOptions): Promise<PostResult | typeof RETRY> {
    const timeoutMs = Math.max(1, deadline - Date.now());
    return new Promise((resolve) => {
      const connectMs = Math.min(timeoutMs, o.connectTimeoutMs ?? o.limits.connectMs);
      const ex: Exchange = (this.ex = {
        resolve,
        timer: setTimeout(() => this.fail(this.timedOut(ex)), timeoutMs),
        connectTimer: this.connected ? undefined : setTimeout(() => this.fail(`connect timed out after ${connectMs} ms`), connectMs),
        o,
        phase: 'head',
        buf: Buffer.alloc(0),
        status: 0,
        keepAlive: true,
        left: 0,
        kept: [],
        keptBytes: 0,
        seen: 0,
        headBytes: 0,
        headerLines: 0,
        trailerBytes: 0,
        trailerLines: 0,
        answered: false,
      });
      this.used++;
      if (this.closed) this.onEnd('ECONNRESET: the connection closed before the request');
      else this.socket.write(text);
    });
  }

  /** Why an attempt ran out of time: where in the answer it was. */
  private timedOut(ex: Exchange): string {
    const where = !this.connected
      ? 'connecting'
      : !ex.answered
        ? 'waiting for the answer'
        : ex.phase === 'head'
          ? 'reading the status line and headers'
          : ex.phase === 'trailer'
            ? 'reading the trailers'
            : 'reading the body';
    return `timed out after ${ex.o.timeoutMs} ms ${where}`;
  }

  private onData(chunk: Buffer): void {
    const ex = this.ex;
    if (!ex) {
      // Bytes nobody asked for: the connection is out of step.
      this.socket.destroy();
      return;
    }
    ex.answered = true;
    ex.buf = ex.buf.length === 0 ? chunk : Buffer.concat([ex.buf, chunk]);
    try {
      readAnswer(ex, this);
    } catch (err) {
      if (err instanceof Bound) this.fail(`receiver limit: ${err.message}`);
      else this.fail(`the answer is not HTTP/1.1: ${(err as Error).message}`);
    }
  }

  current(): Exchange | undefined {
    return this.ex;
  }

  done(ex: Exchange): void {
    this.finish({ status: ex.status, body: Buffer.concat(ex.kept).toString('utf8') });
    // Otherwise the slot frees when the socket has closed (onEnd).
    if (ex.keepAlive && ex.buf.length === 0 && !this.closed) released(this.origin, this);
    else this.socket.destroy();
  }

  fail(error: string): void {
    const ex = this.ex;
    if (!ex) return;
    this.finish(ex.status ? { status: ex.status, body: Buffer.concat(ex.kept).toString('utf8'), error } : { body: null, error });
    this.socket.destroy();
  }

  private finish(r: PostResult | typeof RETRY): void {
    const ex = this.ex!;
    this.ex = undefined;
    clearTimeout(ex.timer);
    if (ex.connectTimer) clearTimeout(ex.connectTimer);
    ex.resolve(r);
  }

  private onEnd(reason: string): void {
    const wasClosed = this.closed;
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const ex = this.ex;
    if (ex) {
      if (ex.phase === 'close' && reason.startsWith('ECONNRESET')) {
        // A close-delimited body ends with the connection.
        this.finish({ status: ex.status, body: Buffer.concat(ex.kept).toString('utf8') });
      } else if (!ex.answered && this.used > 1) {
        this.finish(RETRY);
      } else {
        this.finish(ex.status ? { status: ex.status, body: Buffer.concat(ex.kept).toString('utf8'), error: reason } : { body: null, error: reason });
      }
    }
    if (wasClosed) return;
    this.socket.destroy();
    const i = this.origin.idle.indexOf(this);
    if (i >= 0) this.origin.idle.splice(i, 1);
    this.origin.open--;
    const next = this.origin.waiting.shift();
    if (next) next(new Conn(this.origin));
  }
}
