// A Server-Sent Events session (better-sse's framing) whose heartbeat is ours. better-sse
// starts its keep-alive interval in a setImmediate after the session is made; a client
// that leaves before that (a page closed at once) has its disconnect handled first, and
// the interval then starts for a connection that is gone and never stops: a timer per such
// connection for the life of the server, writing to a dead socket (it also kept test
// processes from exiting). So sessions here have no keep-alive of better-sse's: the
// heartbeat comment is written here, and stops with the response.
import type http from 'node:http';
import { createSession, type Session, type SessionOptions } from 'better-sse';

export async function openSseSession(req: http.IncomingMessage, res: http.ServerResponse, opts: Omit<SessionOptions, 'keepAlive'> & { heartbeatMs: number }): Promise<Session> {
  const { heartbeatMs, ...options } = opts;
  const session = await createSession(req, res, { ...options, keepAlive: null });
  if (!res.destroyed && !res.writableEnded) {
    const beat = setInterval(() => {
      if (session.isConnected && !res.writableEnded) res.write(':\n\n');
    }, heartbeatMs);
    beat.unref();
    res.once('close', () => clearInterval(beat));
  }
  return session;
}
