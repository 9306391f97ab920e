// The client's address for per-IP limits. X-Forwarded-For is believed only with
// --trust-proxy (a proxy you run sets it); otherwise anyone could forge it.
import type { IncomingMessage } from 'node:http';

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return normalize(req.socket.remoteAddress ?? 'unknown');
}

/** ::ffff:127.0.0.1 and 127.0.0.1 are one client. */
const normalize = (ip: string): string => (ip.startsWith('::ffff:') ? ip.slice(7) : ip);
