// `payctl logs tail`: follow the access log that `payctl serve` appends to (one JSON line
// per request), filtered and formatted for a terminal. Reading the file rather than a
// server endpoint needs no key and also shows requests that failed authentication.
import { open, stat } from 'node:fs/promises';
import type { AccessEntry } from '../http/access-log.js';

export interface LogFilter {
  /** Status classes (4 for `4xx`) and exact codes (404). */
  statusClasses: number[];
  statuses: number[];
  /** Path patterns: `*` matches within one segment; a pattern without `*` matches as a prefix. */
  paths: RegExp[];
}

/** `4xx,500` → classes [4], codes [500]; throws naming the bad part. */
export function parseStatusFilter(spec: string): Pick<LogFilter, 'statusClasses' | 'statuses'> {
  const out = { statusClasses: [] as number[], statuses: [] as number[] };
  for (const part of spec.split(',').map((s) => s.trim().toLowerCase())) {
    if (/^[1-5]xx$/.test(part)) out.statusClasses.push(Number(part[0]));
    else if (/^[1-5]\d\d$/.test(part)) out.statuses.push(Number(part));
    else throw new Error(`--status: '${part}' is not a status class (4xx) or code (404); separate several with commas`);
  }
  return out;
}

export function pathPattern(spec: string): RegExp {
  const escaped = spec.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*');
  return new RegExp(`^${escaped}${spec.includes('*') ? '$' : ''}`);
}

export function matches(entry: AccessEntry, f: LogFilter): boolean {
  if (f.statusClasses.length + f.statuses.length > 0) {
    if (!f.statusClasses.includes(Math.floor(entry.status / 100)) && !f.statuses.includes(entry.status)) return false;
  }
  return f.paths.length === 0 || f.paths.some((p) => p.test(entry.path));
}

/** One terminal line: time, method, path, status, duration, request id, idempotency key, error type. */
export function formatEntry(e: AccessEntry): string {
  const time = e.time.slice(11, 23);
  const parts = [time, e.method.padEnd(6), e.path, String(e.status), `${e.duration_ms}ms`, e.request_id ?? '-'];
  if (e.idempotency_key) parts.push(`idempotency_key=${e.idempotency_key}`);
  if (e.error_type) parts.push(e.error_type);
  if (e.fault) parts.push(`fault: ${e.fault}`);
  return parts.join('  ');
}

/**
 * Calls `onEntry` for every complete line appended to `file` from now on (from its start with
 * `readExisting`, then `onCaughtUp`), polling its size; a truncated file is read from its start
 * again. Resolves when `signal` aborts.
 */
export async function followLog(
  file: string,
  onEntry: (entry: AccessEntry) => void,
  opts: { signal: AbortSignal; readExisting?: boolean; onCaughtUp?: () => void; pollMs?: number },
): Promise<void> {
  let offset = (await stat(file)).size;
  let pending = '';
  const emit = (text: string) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        onEntry(JSON.parse(line) as AccessEntry);
      } catch {
        // A line from an older format or a partial write cut by a crash: skip it.
      }
    }
  };
  const readFrom = async (from: number, to: number): Promise<string> => {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(to - from);
      await fh.read(buf, 0, buf.length, from);
      return buf.toString('utf8');
    } finally {
      await fh.close();
    }
  };
  if (opts.readExisting) emit(await readFrom(0, offset));
  else pending = '';
  opts.onCaughtUp?.();
  while (!opts.signal.aborted) {
    await new Promise<void>((resolve) => {
      const stop = () => (clearTimeout(t), resolve());
      const t = setTimeout(() => (opts.signal.removeEventListener('abort', stop), resolve()), opts.pollMs ?? 100);
      opts.signal.addEventListener('abort', stop, { once: true });
    });
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch {
      continue; // rotated away for a moment
    }
    if (size < offset) {
      offset = 0;
      pending = '';
    }
    if (size > offset) {
      const text = await readFrom(offset, size);
      offset = size;
      emit(text);
    }
  }
}
