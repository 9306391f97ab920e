// Long polling for any list (events, delivery attempts, the inbox, the request journal):
// run the list's page query, and while it holds fewer than `count` items and the
// deadline has not passed, wait for a wake-up — the writes that can add items say so
// after they commit (this process's, and on PostgreSQL other servers' where the store
// announces them) — or for the fallback poll (other processes' writes nobody announces),
// then run it again. The answer is the last page read: with `count` items as soon as they
// exist, or at the deadline with what there is, never later; a request whose client went
// away (or whose server is shutting down) stops at once. docs/testing.md, "Wait, don't poll".
//
// Many clients often wait on the same page (a suite's workers on one sandbox's events):
// waits that name the same `share` key read it once between them — a read is joined only
// if it started after the joiner's last wake-up, so no joiner misses the write that woke it.

/** How often a waiting list reads again when nothing woke it (writes by other processes). */
export const LONG_POLL_FALLBACK_MS = 1_000;

export interface LongPoll<P> {
  /** How long to wait at most (real ms); 0: read once. */
  waitMs: number;
  /** Items that end the wait. */
  count: number;
  /** Aborts the wait (the client disconnected, the server is closing): the last page read is the answer. */
  signal?: AbortSignal | undefined;
  /** The page query, run again after each wake-up. */
  read: () => Promise<P>;
  /** How many matching items a page holds. */
  size: (page: P) => number;
  /** Subscribe to the writes that may add items; returns the unsubscribe. */
  wake?: (notify: () => void) => () => void;
  /** Waits on the same page of the same store (one key per query: its group and every parameter, as a list) share their reads. */
  share?: { store: object; key: readonly unknown[] };
  /** The fallback poll (default LONG_POLL_FALLBACK_MS). */
  pollMs?: number;
}

let waiting = 0;
/** Requests waiting now, in this process (tests: a client that went away leaves none; the bench). */
export const waitingRequests = (): number => waiting;

interface SharedRead {
  startedAt: number;
  page: Promise<unknown>;
}
const shared = new WeakMap<object, Map<string, SharedRead>>();

/** The page, read once for every wait on `share` whose last wake-up came before the read began. */
function readShared<P>(o: LongPoll<P>, wokeAt: number): Promise<P> {
  if (!o.share) return o.read();
  let reads = shared.get(o.share.store);
  if (!reads) shared.set(o.share.store, (reads = new Map()));
  const key = JSON.stringify(o.share.key);
  const running = reads.get(key);
  if (running && running.startedAt >= wokeAt) return running.page as Promise<P>;
  const mine: SharedRead = { startedAt: performance.now(), page: o.read() };
  const map = reads;
  map.set(key, mine);
  void mine.page.finally(() => map.get(key) === mine && map.delete(key)).catch(() => undefined);
  return mine.page as Promise<P>;
}

export async function longPoll<P>(o: LongPoll<P>): Promise<P> {
  if (o.waitMs <= 0) return o.read();
  waiting++;
  const deadline = Date.now() + o.waitMs;
  let woken = false;
  let wokeAt = performance.now();
  let resume: (() => void) | undefined;
  const notify = () => {
    woken = true;
    wokeAt = performance.now();
    resume?.();
  };
  // Subscribed before the first read: a write committed between a read and the wait still wakes it.
  const off = o.wake?.(notify);
  o.signal?.addEventListener('abort', notify);
  try {
    for (;;) {
      woken = false;
      const page = await readShared(o, wokeAt);
      const readAt = performance.now();
      const left = deadline - Date.now();
      if (o.size(page) >= o.count || left <= 0 || o.signal?.aborted) return page;
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, o.pollMs ?? LONG_POLL_FALLBACK_MS));
          function done() {
            clearTimeout(timer);
            resume = undefined;
            resolve();
          }
          resume = done;
        });
        // The fallback poll: any read begun since this one's last read ended is as fresh (the waits polling together share one).
        if (!woken) wokeAt = readAt;
      }
      if (o.signal?.aborted) return page;
    }
  } finally {
    waiting--;
    off?.();
    o.signal?.removeEventListener('abort', notify);
  }
}
