// Who may use the dashboard, checked before any view runs (docs/dashboard.md, "Safety"):
// the Host must be this server's own address or localhost (a page on another site that
// rebinds its DNS name to 127.0.0.1 still sends its own name), a session cookie made from
// the admin token (HttpOnly, SameSite=Strict, kept in this process's memory only), and on
// every POST the session's CSRF token and an Origin that is this server's.
import type http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../lib/ids.js';

export const COOKIE = 'payctl_dashboard';
/** A session lasts this long of wall time (it is the operator's browser, not the platform's clock). */
const SESSION_MS = 12 * 3600_000;
/** Sessions kept at most (the oldest go first): a flood of logins cannot grow the process. */
const MAX_SESSIONS = 1000;

export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on a form POST, and the Origin check needs the real one.
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

export interface Session {
  id: string;
  csrf: string;
  expires: number;
  /** What the last action of a page did, shown once on its next render (a clock move's work). */
  flash: Map<string, unknown>;
}

export class Sessions {
  private readonly byId = new Map<string, Session>();

  open(now = Date.now()): Session {
    const s: Session = { id: randomBase62(32), csrf: randomBase62(32), expires: now + SESSION_MS, flash: new Map() };
    this.byId.set(s.id, s);
    while (this.byId.size > MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value!);
    return s;
  }

  find(req: http.IncomingMessage, now = Date.now()): Session | undefined {
    const id = cookieOf(req, COOKIE);
    const s = id === undefined ? undefined : this.byId.get(id);
    if (!s) return undefined;
    if (s.expires <= now) {
      this.byId.delete(s.id);
      return undefined;
    }
    return s;
  }

  close(id: string): void {
    this.byId.delete(id);
  }
}

export function cookieOf(req: http.IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export const sessionCookie = (s: Session): string => `${COOKIE}=${s.id}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MS / 1000}`;
export const clearedCookie = `${COOKIE}=; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=0`;

const bare = (address: string | undefined) => (address ?? '').replace(/^::ffff:/, '');
const withPort = (address: string, port: number) => (address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`);

/** The Host values this server answers to: localhost, the loopback addresses, the address the request reached, the public URL's host. */
export function allowedHosts(req: http.IncomingMessage, publicUrl: string): Set<string> {
  const port = req.socket?.localPort ?? 0;
  const hosts = new Set([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
  const local = bare(req.socket?.localAddress);
  if (local) hosts.add(withPort(local, port));
  try {
    hosts.add(new URL(publicUrl).host.toLowerCase());
  } catch {
    // a malformed public URL adds nothing
  }
  return hosts;
}

export function hostAllowed(req: http.IncomingMessage, publicUrl: string): boolean {
  const host = req.headers.host?.toLowerCase();
  return host !== undefined && allowedHosts(req, publicUrl).has(host);
}

/** A POST's Origin is this page's own (the Host, already checked); a POST without one is refused. */
export function originAllowed(req: http.IncomingMessage): boolean {
  const origin = req.headers.origin;
  return typeof origin === 'string' && origin.toLowerCase() === `http://${req.headers.host?.toLowerCase()}`;
}

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
