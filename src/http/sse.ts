// The event stream on the wire (Server-Sent Events): a connection's event feed
// (src/services/events/stream.ts) written as SSE messages — `id:` the event's position,
// `event:` its type, `data:` the event object's JSON text — with heartbeat comments, the
// reconnection delay and the response head. The framing is better-sse's, the heartbeat
// ours (./sse-session.ts). A socket that does not drain holds its feed (the feed reads on
// only when asked), never the process's memory.
import { once } from 'node:events';
import { openSseSession } from './sse-session.js';
import type { GroupContext } from '../services/context.js';
import { eventFeed, type StreamPlan } from '../services/events/stream.js';
import type { StreamIo } from './route.js';

/** Heartbeat comment interval, so proxies and clients see a live connection (server setting `eventStreamHeartbeatMs`). */
export const STREAM_HEARTBEAT_MS = 15_000;
/** The reconnection delay suggested to clients (`retry:`). */
export const STREAM_RETRY_MS = 1_000;

/** Sends the stream until the client goes away or the server shuts down. */
export async function streamEvents(ctx: GroupContext, plan: StreamPlan, io: StreamIo): Promise<void> {
  const pollMs = positive(io.settings.eventStreamPollMs);
  const heartbeatMs = positive(io.settings.eventStreamHeartbeatMs) ?? STREAM_HEARTBEAT_MS;
  const feed = eventFeed(ctx, plan, { signal: io.signal, ...(pollMs ? { pollMs } : {}) });
  try {
    // The feed is joined (and counted) before the answer starts.
    const first = await feed.next();
    const session = await openSseSession(io.req, io.res, {
      heartbeatMs,
      retry: STREAM_RETRY_MS,
      // The position is ours (the log), not better-sse's.
      trustClientEventId: false,
      headers: { 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' },
      // Event data is pushed as JSON text already (serialized once per feed).
      serializer: (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
    });
    for (let item = first; !item.done; item = await feed.next()) {
      if (io.signal.aborted || !session.isConnected) break;
      const it = item.value;
      if (it.kind === 'ready') {
        session.push(JSON.stringify(it.ready), 'ready', it.id);
        continue;
      }
      await session.batch((buffer) => {
        for (const e of it.events) buffer.push(e.json, e.type, e.id);
      });
      if (io.res.writableNeedDrain) await once(io.res, 'drain', { signal: io.signal }).catch(() => undefined);
    }
  } finally {
    await feed.return(undefined);
    if (!io.res.writableEnded) io.res.end();
  }
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && v > 0 ? v : undefined;
}
