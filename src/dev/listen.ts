// `payctl listen`: follow a running server's live event stream (Server-Sent Events, read
// with the eventsource client) and forward each event to a local URL, signed per
// Standard Webhooks with a listen secret, so an integration's webhook handler can be
// developed against payctl without exposing it. The client reconnects by itself and
// resumes with Last-Event-ID: an outage of the server loses no event.
import { randomBytes } from 'node:crypto';
import { EventSource } from 'eventsource';
import { EVENT_TYPES, objectId, type Event } from '../domain/events.js';
import { ATTEMPT_TIMEOUT_MS } from '../domain/webhooks.js';
import { signatureHeader } from '../services/webhooks/signing.js';

/** Forwarded requests wait as long for an answer as webhook deliveries do. */
const FORWARD_TIMEOUT_MS = ATTEMPT_TIMEOUT_MS;

export interface ListenOptions {
  apiUrl: string;
  apiKey: string;
  group: string;
  /** Type filter (exact types and wildcards); every type when empty. */
  types: string[];
  forwardTo?: string;
  /** The signing secret (`whsec_…`) of forwarded events. */
  secret: string;
  json: boolean;
  /** Where event lines go (stdout) and where status lines go (stderr). */
  out(line: string): void;
  info(line: string): void;
  signal: AbortSignal;
  /** The first wait before trying again after a 5xx (RECONNECT_BASE_MS). */
  reconnectBaseMs?: number;
}

/** Why listening cannot start, said in one line for the user. */
export class ListenError extends Error {}

/** The server answered with a 5xx: worth trying again. */
class Unavailable extends Error {}

export function newListenSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The result of forwarding one event: the receiver's status, or why it got none. */
export type ForwardResult = { status: number } | { error: string };

/** POST one event's JSON (exactly the bytes streamed) to `url`, signed with `secret`. */
export async function forwardEvent(url: string, secret: string, event: { id: string }, body: string, now = new Date()): Promise<ForwardResult> {
  const timestamp = Math.floor(now.getTime() / 1000);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'payctl-listen',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([secret], event.id, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { error: (err as Error).name === 'TimeoutError' ? `no answer in ${FORWARD_TIMEOUT_MS / 1000} s` : (cause ?? (err as Error).message) };
  }
}

/** One terminal line per event: time, type, event id, object id, and the forward's outcome. */
export function eventLine(e: Event, forward?: ForwardResult): string {
  const time = e.created_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const parts = [time, e.type.padEnd(28), e.id, objectId(e) || '-'];
  if (forward) parts.push('status' in forward ? `[${forward.status}]` : `[error: ${forward.error}]`);
  return parts.join('  ');
}

function streamUrl(o: Pick<ListenOptions, 'apiUrl' | 'group' | 'types'>): string {
  const url = new URL(`/api/v1/groups/${encodeURIComponent(o.group)}/events/stream`, o.apiUrl);
  if (o.types.length > 0) url.searchParams.set('types', o.types.join(','));
  return url.toString();
}

/**
 * Checks that a server answers the stream for this key and group, so a wrong URL, key or
 * group is one clear sentence rather than a client retrying forever.
 */
async function preflight(o: ListenOptions): Promise<void> {
  let res: Response;
  try {
    res = await fetch(streamUrl(o), { headers: { authorization: o.apiKey, accept: 'text/event-stream' }, signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new ListenError(
      `no payctl server answers at ${o.apiUrl}: start one with \`payctl serve\` (it listens on http://127.0.0.1:4000), or give --api-url (or \`payctl config set api-url URL\`)`,
    );
  }
  if (res.ok) {
    await res.body?.cancel();
    return;
  }
  const text = await res.text().catch(() => '');
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: string; fields?: Array<{ path: string; message: string }> } };
    message = [body.error?.message, ...(body.error?.fields ?? []).map((f) => `${f.path}: ${f.message}`)].filter(Boolean).join('; ');
  } catch {
    // not a payctl answer: say what it was
  }
  const hint =
    res.status === 401 || res.status === 403
      ? ' (give a key of the group with the manage_webhooks permission: --api-key or PAYCTL_API_KEY; `payctl key create --group G --permission manage_webhooks`)'
      : res.status === 404
        ? ` (is ${o.apiUrl} a payctl server?)`
        : '';
  const problem = `the server at ${o.apiUrl} refused the event stream (${res.status}): ${message || res.statusText}${hint}`;
  throw res.status >= 500 ? new Unavailable(problem) : new ListenError(problem);
}

/**
 * The group's active API fault rules (docs/faults.md), as one line each, when the key may
 * read them (manage_transactions); nothing otherwise. Events of faulted calls then follow
 * what the client was told (a declined sale, no event for an injected error).
 */
export async function faultRulesNotice(o: Pick<ListenOptions, 'apiUrl' | 'apiKey' | 'group'>): Promise<string | undefined> {
  try {
    const res = await fetch(new URL(`/api/v1/sandboxes/${encodeURIComponent(o.group)}/faults`, o.apiUrl), {
      headers: { authorization: o.apiKey },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) return (await res.body?.cancel(), undefined);
    const { data } = (await res.json()) as { data: Array<Record<string, unknown>> };
    if (data.length === 0) return undefined;
    const rules = data.map((r) => `${r.id}: ${r.operation ?? `${r.method} ${r.path}`} ${r.action}${r.response_code ? ` ${r.response_code}` : ''}${r.status ? ` ${r.status}` : ''}`);
    return `Faults are on in group ${o.group}: ${data.length} API rule(s) (${rules.join('; ')}); the events follow what each call was told (payctl fault list; payctl logs tail marks each faulted call)`;
  } catch {
    return undefined;
  }
}

/** The first wait before connecting again after the server refused the stream with a 5xx; doubled per failure. */
export const RECONNECT_BASE_MS = 1_000;
/** The longest wait between two tries. */
export const RECONNECT_MAX_MS = 30_000;

/** The wait before try `failures + 1` (1 s, 2 s, 4 s … 30 s). */
export function reconnectDelay(failures: number, baseMs = RECONNECT_BASE_MS): number {
  return Math.min(RECONNECT_MAX_MS, baseMs * 2 ** Math.max(0, failures - 1));
}

/**
 * Listens until `signal` aborts; rejects with a ListenError when it cannot start (a 5xx at
 * start is tried again with the same backoff) or the server refuses the stream later with a 4xx (the key or the group: trying again would
 * not help). A lost connection is the client's to resume (it does so by itself); a
 * reconnect the server answers with a 5xx ends that client, so listen opens a new one
 * with backoff (RECONNECT_BASE_MS doubling up to RECONNECT_MAX_MS), from the last
 * position it received, and says so on stderr.
 */
export async function listen(o: ListenOptions): Promise<void> {
  // A 5xx at start is tried again like one on a reconnect (a server starting behind a proxy).
  for (let failures = 1; ; failures++) {
    try {
      await preflight(o);
      break;
    } catch (err) {
      if (!(err instanceof Unavailable)) throw err;
      const delay = reconnectDelay(failures, o.reconnectBaseMs);
      o.info(`${err.message}; trying again in ${delay / 1000} s`);
      if (o.signal.aborted) return;
      const stopped = await new Promise<boolean>((resolve) => {
        const onAbort = () => (clearTimeout(timer), resolve(true));
        const timer = setTimeout(() => (o.signal.removeEventListener('abort', onAbort), resolve(false)), delay);
        o.signal.addEventListener('abort', onAbort, { once: true });
      });
      if (stopped) return;
    }
  }
  const faults = await faultRulesNotice(o);
  const url = streamUrl(o);
  let connectedOnce = false;
  let down = false;
  // Events are handled one after another, in stream order (forwarded, then printed).
  let queue: Promise<void> = Promise.resolve();
  const handle = (raw: string) => {
    queue = queue.then(async () => {
      const e = JSON.parse(raw) as Event;
      const forward = o.forwardTo ? await forwardEvent(o.forwardTo, o.secret, e, raw) : undefined;
      if (o.json) {
        o.out(raw);
        if (forward && !('status' in forward && forward.status < 300)) o.info(`forward of ${e.id} to ${o.forwardTo}: ${'status' in forward ? forward.status : forward.error}`);
      } else {
        o.out(eventLine(e, forward));
      }
    });
  };
  return new Promise<void>((resolve, reject) => {
    let es: EventSource | undefined;
    let retryTimer: NodeJS.Timeout | undefined;
    let failures = 0;
    /** The last position received: where a new client resumes. */
    let position: string | undefined;
    let finished = false;
    const finish = (err?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(retryTimer);
      es?.close();
      o.signal.removeEventListener('abort', stop);
      void queue.then(() => (err ? reject(err) : resolve()));
    };
    const stop = () => finish();
    const open = () => {
      if (finished) return;
      const u = new URL(url);
      // A new client has no Last-Event-ID of its own: the position goes in the query.
      if (position !== undefined) u.searchParams.set('last_event_id', position);
      const source = new EventSource(u.toString(), {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: o.apiKey } }),
      });
      es = source;
      const onEvent = (m: MessageEvent) => {
        if (m.lastEventId) position = m.lastEventId;
        handle(m.data as string);
      };
      for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
      source.addEventListener('ready', (m: MessageEvent) => {
        const ready = JSON.parse(m.data as string) as { last_event_id: string; types: string[] };
        position = ready.last_event_id;
        failures = 0;
        if (!connectedOnce) {
          connectedOnce = true;
          o.info(`Ready: listening for ${ready.types.join(', ')} events of group ${o.group} at ${o.apiUrl} (Ctrl-C stops)`);
          if (o.forwardTo) o.info(`Forwarding to ${o.forwardTo}, signed (Standard Webhooks) with the secret ${o.secret}`);
          if (faults) o.info(faults);
        } else {
          o.info(`reconnected: resuming after event position ${ready.last_event_id}`);
        }
        down = false;
      });
      source.onerror = (err) => {
        if (finished || es !== source) return;
        if (source.readyState !== source.CLOSED) {
          // The client reconnects by itself (resuming with Last-Event-ID).
          if (!down) {
            down = true;
            o.info(`lost the connection to ${o.apiUrl}; reconnecting (no event is lost: the stream resumes where it stopped)`);
          }
          return;
        }
        source.close();
        const code = (err as unknown as { code?: number }).code;
        if (code !== undefined && code < 500) {
          finish(new ListenError(`the server at ${o.apiUrl} refused the event stream (${code}); check the key and the group, then run payctl listen again`));
          return;
        }
        failures++;
        const delay = reconnectDelay(failures, o.reconnectBaseMs);
        down = true;
        o.info(
          `the server at ${o.apiUrl} answered the reconnect with ${code ?? 'an error'}; trying again in ${delay / 1000} s (no event is lost: the stream resumes where it stopped)`,
        );
        retryTimer = setTimeout(open, delay);
      };
    };
    if (o.signal.aborted) return finish();
    o.signal.addEventListener('abort', stop, { once: true });
    open();
  });
}
