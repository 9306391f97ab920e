// One read for the callers that ask at about the same time (both stores' `getShared`):
// the small reads every request makes (the clock, the configuration counter). A caller is
// answered by a statement submitted after it asked, so it sees every commit made before
// its call, as a read of its own would; while one runs, the callers arriving wait for the
// next, which starts when it ends — one statement per trip instead of one per request.

/** The read of one SQL text running now, and the one the callers arriving meanwhile wait for. */
export interface SharedRead {
  running?: Promise<unknown>;
  next?: Promise<unknown>;
}

/** `read()` shared through `reads` (keyed by its SQL text) as above. */
export function sharedRead<T>(reads: Map<string, SharedRead>, sql: string, read: () => Promise<T>): Promise<T> {
  let s = reads.get(sql);
  if (!s) reads.set(sql, (s = {}));
  const state = s;
  const start = (): Promise<T> => {
    const running = read();
    state.running = running;
    const done = () => {
      if (state.running === running) state.running = undefined;
    };
    running.then(done, done);
    return running;
  };
  if (!state.running) return start();
  // The running statement may have started before this call: wait for the next one.
  state.next ??= state.running
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      state.next = undefined;
      return start();
    });
  return state.next as Promise<T>;
}
