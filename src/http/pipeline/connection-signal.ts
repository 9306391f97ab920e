// A request's signal: aborted when its client goes away or the server shuts down, for the
// answers that last (a stream, a list's `wait`).
import type http from 'node:http';

/** Aborts when the server shuts down or the client's connection closes. */
export function connectionSignal(res: http.ServerResponse, closing: AbortSignal): AbortSignal {
  const ac = new AbortController();
  const abort = () => ac.abort();
  if (closing.aborted || res.destroyed) abort();
  closing.addEventListener('abort', abort, { once: true });
  res.once('close', abort); // also when the client goes away
  ac.signal.addEventListener('abort', () => closing.removeEventListener('abort', abort), { once: true });
  return ac.signal;
}
