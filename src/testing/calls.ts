// How the kit calls a server: each call on a connection of its own, the operation a
// concrete path is (for the key it needs), an answer read whole, and the error of a
// failed call of the kit's own.
import { OPERATION_AUTH } from '../client/api.js';

export interface Answer<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
  headers: Headers;
  /** The parsed JSON answer (the text when it is not JSON). */
  body: T;
}

/**
 * Every call of the kit on a connection of its own: a suite's hundreds of concurrent
 * tests on a busy machine otherwise reuse idle keep-alive connections the server is
 * closing at that moment (its idle timeout, 5 s, racing a late timer), and a call fails
 * with "other side closed" that the server never saw. A loopback connect costs ~0.1 ms.
 */
export const OWN_CONNECTION = { connection: 'close' } as const;

/** `METHOD /template` of the operation a concrete path is (templates tried as patterns). */
const OPERATIONS = Object.keys(OPERATION_AUTH).map((op) => {
  const [method, template] = op.split(' ') as [string, string];
  const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[a-z_]+\}/g, '[^/]+')}$`);
  return { op, method, pattern, literal: template.split('/').filter((s) => !s.startsWith('{')).length };
})
  // A literal segment wins over a parameter (/events/stream before /events/{event_id}).
  .sort((a, b) => b.literal - a.literal);

export function operationOf(method: string, pathname: string): string | undefined {
  return OPERATIONS.find((o) => o.method === method && o.pattern.test(pathname))?.op;
}

export async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

/** The server as sandboxes see it; `stopped` says why calls are refused once `stop()` ran. */
export interface ServerHandle {
  url: string;
  adminToken: string;
  stopped?: string;
}

/** A failed call of the kit's own (creating, moving, dropping): the answer's status and message. */
export function failed(what: string, a: Answer): Error {
  const message = (a.body as { error?: { message?: string } } | undefined)?.error?.message ?? JSON.stringify(a.body);
  return new Error(`payctl: ${what} answered ${a.status}: ${message}`);
}
