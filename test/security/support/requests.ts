// Sending a request to any route of the table as a legitimate caller of group A would
// (its key, its session token, its ids in the path), and the error-shape check (docs/decisions.md#errors).
import assert from 'node:assert/strict';
import type { RouteDef } from '../../../src/http/route.js';
import { ADMIN_TOKEN, fillPath, type World } from './fixtures.js';

export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export interface Outgoing {
  /** A JSON value to send (serialized with JSON.stringify). */
  json?: unknown;
  /** Raw body text (sent as is). */
  raw?: string;
  contentType?: string;
  query?: string;
  /** Path parameters to use instead of group A's. */
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

const ERROR_TYPES = new Set([
  'validation_error', 'invalid_request', 'authentication_error', 'permission_error', 'not_found', 'idempotency_error', 'rate_limited', 'unavailable',
]);

/** Session tokens for the pay routes: a fresh fixed-amount link of group A whenever the last one got paid. */
export class Sessions {
  private current?: { linkId: string; token: string };
  constructor(private readonly w: World) {}

  async get(): Promise<{ linkId: string; token: string }> {
    if (this.current) return this.current;
    const created = await this.w.s.call('POST', `/api/v1/groups/${this.w.a.groupId}/payment-links`, {
      key: this.w.a.allKey,
      body: { amount: 1500, description: 'hostile input' },
    });
    assert.equal(created.status, 200, created.text);
    const pub = await this.w.s.call('GET', `/api/v1/payment-links/${created.body.id}`);
    assert.equal(pub.status, 200, pub.text);
    this.current = { linkId: created.body.id, token: pub.body.session_token };
    return this.current;
  }

  /** Call after a 200 from pay: the link is used up. */
  used(): void {
    this.current = undefined;
  }
}

/** Requests retried once after a transport error (reported by the suites). */
export let transportRetries = 0;

export async function sendTo(w: World, sessions: Sessions, route: RouteDef, out: Outgoing, baseUrl = w.s.url): Promise<Reply> {
  const headers: Record<string, string> = { ...(out.headers ?? {}) };
  const params: Record<string, string> = { ...w.a.ids, ...(out.params ?? {}) };
  if (route.auth.kind === 'key') headers.authorization ??= w.a.allKey;
  if (route.auth.kind === 'admin') headers.authorization ??= ADMIN_TOKEN;
  if (route.auth.kind === 'session') {
    const session = await sessions.get();
    headers.authorization ??= session.token;
    params.payment_link_id = out.params?.payment_link_id ?? session.linkId;
  }
  let body: string | undefined;
  if (out.raw !== undefined) body = out.raw;
  else if (out.json !== undefined) body = JSON.stringify(out.json);
  if (body !== undefined) headers['content-type'] ??= out.contentType ?? 'application/json';
  const path = fillPath(route, params) + (out.query ? `?${out.query}` : '');
  let res: Response | undefined;
  for (let attempt = 0; !res; attempt++) {
    try {
      res = await fetch(baseUrl + path, { method: route.method, headers, body: route.method === 'GET' ? undefined : body });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      // A reused keep-alive socket the server closed for idleness (the machine stalled past
      // keepAliveTimeout) is a client-side race: retry once on a new connection. A server
      // that died answers ECONNREFUSED the second time and fails the test.
      if (attempt === 0 && cause?.code !== 'ECONNREFUSED') {
        transportRetries++;
        continue;
      }
      throw new Error(`${route.method} ${path}: ${(err as Error).message} (${cause?.code ?? ''} ${cause?.message ?? ''})`);
    }
  }
  const text = await answerText(res);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (route.auth.kind === 'session' && res.status === 200) sessions.used();
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The answer's text; an event stream (which stays open) is checked by its head and closed. */
export async function answerText(res: Response): Promise<string> {
  if (res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await res.body?.cancel();
    return '';
  }
  return res.text();
}

/** No 5xx, and an /api error in the shape of docs/decisions.md#errors (validation errors name their fields). */
export function assertWellFormed(route: RouteDef, r: Reply, input: unknown): void {
  const show = () => `${route.method} ${route.path} → ${r.status} ${r.text.slice(0, 400)}\ninput: ${safeShow(input)}`;
  assert.ok(r.status < 500, `server error: ${show()}`);
  if (r.status < 400 || !route.path.startsWith('/api/')) return;
  assert.match(r.headers.get('content-type') ?? '', /application\/json/, `error is not JSON: ${show()}`);
  const e = r.body?.error;
  assert.ok(e && typeof e === 'object', `no error object: ${show()}`);
  assert.ok(ERROR_TYPES.has(e.type), `unknown error type ${e.type}: ${show()}`);
  assert.equal(typeof e.message, 'string', show());
  assert.ok(e.message.length > 0, show());
  if (e.type === 'validation_error') {
    assert.ok(Array.isArray(e.fields) && e.fields.length > 0, `validation error without fields: ${show()}`);
  }
  if (e.fields !== undefined) {
    assert.ok(Array.isArray(e.fields), show());
    for (const f of e.fields) {
      assert.equal(typeof f.path, 'string', show());
      // An unknown field (or query parameter) named "" is named by its empty name; anything else by a real path.
      assert.ok(f.path.length > 0 || hasEmptyKey(input), `field without a path: ${show()}`);
      assert.equal(typeof f.message, 'string', show());
      assert.ok(f.message.length > 0, show());
    }
  }
}

export function fieldPaths(r: Reply): string[] {
  return ((r.body?.error?.fields ?? []) as Array<{ path: string }>).map((f) => f.path);
}

function hasEmptyKey(v: unknown): boolean {
  if (typeof v === 'string') return /(^|&)=/.test(v) || /(^|&)$/.test(v) || v.includes('"":');
  if (Array.isArray(v)) return v.some(hasEmptyKey);
  if (v && typeof v === 'object') return Object.keys(v).some((k) => k === '' || hasEmptyKey((v as Record<string, unknown>)[k]));
  return false;
}

function safeShow(v: unknown): string {
  try {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > 600 ? `${s.slice(0, 600)}… (${s.length} chars)` : s;
  } catch {
    return String(v);
  }
}
