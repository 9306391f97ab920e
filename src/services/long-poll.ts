// Long polling for any list (events, delivery attempts, the inbox, the request journal):
// run the list's page query, and while it holds fewer than `count` items and the
// deadline has not passed, wait for a wake-up — the writes that can add items say so
// after they commit (this process's, and on PostgreSQL other servers' where the store
// announces them) — or for the fallback poll (other processes' writes nobody announces),
// then run it again. The answer is the last page read: with `count` items as soon as they
// exist, or at the deadline with what there is, never later; a request whose client went
// away (or whose server is shutting down) stops at once. docs/testing.md, "Wait, don't poll".

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
  /** The fallback poll (default LONG_POLL_FALLBACK_MS). */
  pollMs?: number;
}

let waiting = 0;
/** Requests waiting now, in this process (tests: a client that went away leaves none; the bench). */
export const waitingRequests = (): number => waiting;

export async function longPoll<P>(o: LongPoll<P>): Promise<P> {
  if (o.waitMs <= 0) return o.read();
  waiting++;
  const deadline = Date.now() + o.waitMs;
  let woken = false;
  let resume: (() => void) | undefined;
  const notify = () => {
    woken = true;
    resume?.();
  };
  // Subscribed before the first read: a write committed between a read and the wait still wakes it.
  const off = o.wake?.(notify);
  o.signal?.addEventListener('abort', notify);
  try {
    for (;;) {
      woken = false;
      const page = await o.read();
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
      }
      if (o.signal?.aborted) return page;
    }
  } finally {
    waiting--;
    off?.();
    o.signal?.removeEventListener('abort', notify);
  }
}
