// Structured access log: one JSON line per request. Never bodies, never headers: card
// data can only arrive in bodies, so nothing sensitive reaches the log.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';

export interface AccessEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  ip: string;
  /** The Request-Id header of the answer; events of the request carry it as request.id. */
  request_id: string;
  idempotency_key: string | null;
  /** The error body's type (`validation_error` …), null for a success. */
  error_type: string | null;
  /** The fault a sandbox injected (the Payctl-Fault header's value), when one was. */
  fault?: string;
}

export interface AccessLog {
  write(entry: AccessEntry): void;
  close(): Promise<void>;
}

/** `-` logs to stderr, a path appends to that file, `off` disables. */
export function openAccessLog(target: string): AccessLog {
  if (target === 'off') return { write() {}, close: async () => {} };
  let stream: WriteStream | NodeJS.WriteStream;
  if (target === '-') stream = process.stderr;
  else {
    mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    stream = createWriteStream(target, { flags: 'a' });
  }
  return {
    write(entry) {
      stream.write(`${JSON.stringify(entry)}\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (stream === process.stderr) return resolve();
        (stream as WriteStream).end(() => resolve());
      }),
  };
}
