// A call made inside this process through the same handler and pipeline as a network
// call (rate limit, body, fault, Idempotency-Key, route, journal, access log), acting for
// a group without any key: the dashboard's "send again" (docs/dashboard.md). What marks
// it is a symbol on the request object, which no client can send: a network request can
// never act for a group this way.
import http from 'node:http';
import { Duplex } from 'node:stream';

const ACTING_FOR = Symbol('payctl.actingFor');

type Marked = http.IncomingMessage & { [ACTING_FOR]?: string };

/** The group an in-process call acts for; undefined for every request from the network. */
export const actingForOf = (req: http.IncomingMessage): string | undefined => (req as Marked)[ACTING_FOR];

export interface InProcessCall {
  method: string;
  /** The path and query, as a client sends them. */
  path: string;
  headers: Record<string, string>;
  /** The JSON text of the body ('' for none). */
  body: string;
  actingFor: string;
  /** The address the call counts as coming from (the rate limit's and the access log's). */
  remoteAddress: string;
}

export interface InProcessAnswer {
  /** The status, 0 when the connection was dropped without an answer (a `timeout_after_commit` fault). */
  status: number;
  /** The Request-Id the pipeline gave the call (its journal entry's id). */
  requestId: string | undefined;
}

/** A socket that goes nowhere: the answer's bytes are discarded (the journal keeps what matters). */
class NullSocket extends Duplex {
  constructor(readonly remoteAddress: string) {
    super();
  }
  override _read(): void {}
  override _write(_chunk: unknown, _enc: BufferEncoding, done: () => void): void {
    done();
  }
}

/** Runs `call` through `handler` (the API's request handler) and resolves once it is answered. */
export function callInProcess(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void, call: InProcessCall): Promise<InProcessAnswer> {
  const socket = new NullSocket(call.remoteAddress);
  const req = new http.IncomingMessage(socket as never) as Marked;
  req.method = call.method;
  req.url = call.path;
  req.headers = { host: 'in-process', ...lower(call.headers), ...(call.body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(call.body)) } : {}) };
  req[ACTING_FOR] = call.actingFor;
  // The whole body is here: a message not `complete` when read to its end counts as aborted (and would close the socket).
  req.complete = true;
  if (call.body) req.push(call.body);
  req.push(null);
  const res = new http.ServerResponse(req);
  res.assignSocket(socket as never);
  return new Promise((resolve) => {
    let done = false;
    const end = (status: number) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ status, requestId: res.getHeader('request-id') as string | undefined });
    };
    res.once('finish', () => end(res.statusCode));
    res.once('close', () => end(res.headersSent ? res.statusCode : 0));
    handler(req, res);
  });
}

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
