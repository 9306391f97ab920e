// The answer side of the HTTP/1.1 client (./http1.ts): the state of one answer being read
// and the parser that reads it as its bytes arrive (heads, interim 1xx heads,
// Content-Length, chunked and close-delimited bodies, trailers), every part bounded by
// the caller's AnswerLimits.

const CRLF2 = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** What one answer may take, in bytes and time (the caller's: a library holds no policy). */
export interface AnswerLimits {
  /** DNS, TCP and (https) the TLS handshake. */
  connectMs: number;
  statusLineBytes: number;
  /** The status line and headers together, interim (1xx) heads included. */
  headBytes: number;
  /** Header lines of all heads together. */
  headerLines: number;
  /** One chunk-size line (with its extensions). */
  chunkLineBytes: number;
  /** The trailer section of a chunked answer. */
  trailerBytes: number;
  trailerLines: number;
}

/** The options an answer is read under (the post's). */
export interface AnswerReading {
  /** The bounds of the answer; breaking one fails the attempt with an error naming it. */
  limits: AnswerLimits;
  /** Body bytes kept for the result. */
  keepBytes: number;
  /** Body bytes (chunk framing counted) past which the answer is a failure, read no further. */
  bodyMaxBytes: number;
}

export type Phase = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailer' | 'close';

/** An answer that broke one of its AnswerLimits: the attempt fails with this message. */
export class Bound extends Error {}
const kib = (n: number) => `${n / 1024} KiB`;

/** CRLFs in `buf` before `end`. */
function lineBreaks(buf: Buffer, end: number): number {
  let n = 0;
  for (let i = buf.indexOf(CRLF); i >= 0 && i < end; i = buf.indexOf(CRLF, i + 2)) n++;
  return n;
}

/** One answer being read: its phase, the bytes not parsed yet, and what it has used of its bounds. */
export interface AnswerState {
  o: AnswerReading;
  phase: Phase;
  /** Unparsed bytes. */
  buf: Buffer;
  status: number;
  keepAlive: boolean;
  /** Bytes left of a Content-Length body or of the current chunk. */
  left: number;
  kept: Buffer[];
  keptBytes: number;
  /** Body bytes read, chunk framing counted. */
  seen: number;
  /** Bytes and header lines of the heads parsed so far (interim heads count). */
  headBytes: number;
  headerLines: number;
  trailerBytes: number;
  trailerLines: number;
  answered: boolean;
}

/** The connection an answer is read on: which exchange it is on now, and how an answer ends. */
export interface AnswerConn {
  current(): AnswerState | undefined;
  /** The answer is whole. */
  done(ex: AnswerState): void;
  fail(error: string): void;
}

/**
 * Reads what has arrived of `ex`'s answer (its `buf`) as far as it goes, phase by phase,
 * checking every bound on the bytes as they come; tells `conn` when the answer is whole or
 * broke the body's bound. Throws Bound for another broken limit, Error for bytes that are
 * not HTTP/1.1.
 */
export function readAnswer(ex: AnswerState, conn: AnswerConn): void {
  const L = ex.o.limits;
  for (;;) {
    if (conn.current() !== ex) return; // ended (a bound, the body's cap)
    switch (ex.phase) {
      case 'head': {
        // Bounds on what has arrived so far: a head that never ends stops at them.
        const end = ex.buf.indexOf(CRLF2);
        const size = end < 0 ? ex.buf.length : end + 4;
        const first = ex.buf.indexOf(CRLF);
        if ((first < 0 ? ex.buf.length : first) > L.statusLineBytes) throw new Bound(`the status line is over ${kib(L.statusLineBytes)}`);
        const breaks = lineBreaks(ex.buf, Math.min(end < 0 ? ex.buf.length : end, L.headBytes));
        if (ex.headerLines + breaks > L.headerLines) throw new Bound(`over ${L.headerLines} header lines`);
        if (ex.headBytes + size > L.headBytes) throw new Bound(`the head (status line and headers) is over ${kib(L.headBytes)}`);
        if (end < 0) return;
        ex.headBytes += size;
        ex.headerLines += breaks;
        const lines = ex.buf.toString('latin1', 0, end).split('\r\n');
        ex.buf = ex.buf.subarray(end + 4);
        const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]!);
        if (!m) throw new Error(`status line "${lines[0]!.slice(0, 40)}"`);
        const status = Number(m[2]);
        if (status >= 100 && status < 200) continue; // an interim head: the real one follows
        ex.status = status;
        let length: number | undefined;
        let chunked = false;
        let keepAlive = m[1] === '1';
        for (let i = 1; i < lines.length; i++) {
          const line = lines[i]!;
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const name = line.slice(0, colon).trim().toLowerCase();
          const value = line.slice(colon + 1).trim().toLowerCase();
          if (name === 'content-length') length = Number(value);
          else if (name === 'transfer-encoding') chunked = value.split(',').pop()!.trim() === 'chunked';
          else if (name === 'connection') keepAlive = value.includes('keep-alive') || (keepAlive && !value.includes('close'));
        }
        ex.keepAlive = keepAlive;
        if (status === 204 || status === 304) return conn.done(ex);
        if (chunked) ex.phase = 'chunk-size';
        else if (length !== undefined) {
          if (!Number.isSafeInteger(length) || length < 0) throw new Error('Content-Length');
          ex.phase = 'length';
          ex.left = length;
        } else {
          ex.phase = 'close';
          ex.keepAlive = false;
        }
        break;
      }
      case 'length': {
        const n = Math.min(ex.left, ex.buf.length);
        if (!body(conn, ex, ex.buf.subarray(0, n))) return;
        ex.left -= n;
        ex.buf = ex.buf.subarray(n);
        if (ex.left === 0) return conn.done(ex);
        return;
      }
      case 'close': {
        if (!body(conn, ex, ex.buf)) return;
        ex.buf = Buffer.alloc(0);
        return;
      }
      case 'chunk-size': {
        const end = ex.buf.indexOf(CRLF);
        if ((end < 0 ? ex.buf.length : end) > L.chunkLineBytes) throw new Bound(`a chunk-size line is over ${kib(L.chunkLineBytes)}`);
        if (end < 0) return;
        if (!framing(conn, ex, end + 2)) return;
        const size = parseInt(ex.buf.toString('latin1', 0, end).split(';')[0]!.trim(), 16);
        if (!Number.isSafeInteger(size) || size < 0) throw new Error('a chunk size');
        ex.buf = ex.buf.subarray(end + 2);
        ex.left = size;
        ex.phase = size === 0 ? 'trailer' : 'chunk-data';
        break;
      }
      case 'chunk-data': {
        const n = Math.min(ex.left, ex.buf.length);
        if (!body(conn, ex, ex.buf.subarray(0, n))) return;
        ex.left -= n;
        ex.buf = ex.buf.subarray(n);
        if (ex.left > 0) return;
        ex.phase = 'chunk-crlf';
        break;
      }
      case 'chunk-crlf': {
        if (ex.buf.length < 2) return;
        if (!framing(conn, ex, 2)) return;
        ex.buf = ex.buf.subarray(2);
        ex.phase = 'chunk-size';
        break;
      }
      case 'trailer': {
        // Trailer lines until an empty one; bounded like a head (they were the unbounded part).
        const end = ex.buf.indexOf(CRLF);
        const size = end < 0 ? ex.buf.length : end + 2;
        if (ex.trailerBytes + size > L.trailerBytes) throw new Bound(`the trailers are over ${kib(L.trailerBytes)}`);
        if (end < 0) return;
        ex.trailerBytes += size;
        ex.buf = ex.buf.subarray(end + 2);
        if (end === 0) return conn.done(ex);
        if (++ex.trailerLines > L.trailerLines) throw new Bound(`over ${L.trailerLines} trailer lines`);
        break;
      }
    }
  }
}

/** Chunk framing read (counted as body); false when that broke the body's bound (the attempt ended). */
function framing(conn: AnswerConn, ex: AnswerState, n: number): boolean {
  ex.seen += n;
  if (ex.seen <= ex.o.bodyMaxBytes) return true;
  conn.fail(`receiver limit: the body is over ${kib(ex.o.bodyMaxBytes)} (not read further)`);
  return false;
}

/** Keeps the start of the body; false when the body broke its bound (the attempt ended). */
function body(conn: AnswerConn, ex: AnswerState, part: Buffer): boolean {
  if (ex.keptBytes < ex.o.keepBytes && part.length > 0) {
    const k = part.subarray(0, ex.o.keepBytes - ex.keptBytes);
    ex.kept.push(Buffer.from(k));
    ex.keptBytes += k.length;
  }
  return framing(conn, ex, part.length);
}
