// The live pages' notices (events, requests): a Server-Sent Events stream that says "new"
// when the group's rows change, at most every LIVE_EVERY_MS, until the page goes; the
// page's script (pages/dashboard/dashboard.js) then reloads its rows unless paused.
import { openSseSession } from '../sse-session.js';
import { Stream } from './respond.js';

/** A live page is told of changes at most this often (a group selling at full speed commits many times a second). */
const LIVE_EVERY_MS = 500;

/** The notice stream of one page: `subscribe` calls its argument on each change and returns the unsubscribe. */
export function liveNotices(subscribe: (notify: () => void) => () => void): Stream {
  return new Stream(async (req, res, signal) => {
    const session = await openSseSession(req, res, { heartbeatMs: 15_000, retry: 2_000, headers: { 'Cache-Control': 'no-cache, no-transform' } });
    let timer: NodeJS.Timeout | undefined;
    const off = subscribe(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        if (session.isConnected) session.push('new', 'events');
      }, LIVE_EVERY_MS);
    });
    try {
      session.push('ready', 'ready');
      await new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      off();
      clearTimeout(timer);
      res.end();
    }
  });
}
