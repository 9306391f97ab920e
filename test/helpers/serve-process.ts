// The real `payctl serve` as a child process (for kill -9, SIGTERM and memory tests),
// plus a small closed-loop load generator. Readiness and exits are awaited as events,
// never slept for.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { childEnv } from './cli.js';

export interface ServeProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (code, or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when stderr contains `text`. */
  waitForStderr(text: string): Promise<void>;
  /** Resident set size in bytes, from /proc (Linux). */
  rss(): number;
}

export interface ServeOptions {
  db: string;
  args?: string[];
  env?: Record<string, string>;
  /** A fixed port (to restart a server where its clients expect it); default: a free one. */
  port?: number;
}

/** `payctl serve --port 0 --tick 0 --access-log off` over `db`; resolves once it listens. */
export function spawnServe(opts: ServeOptions): Promise<ServeProcess> {
  const args = opts.args ?? ['--tick', '0', '--access-log', 'off'];
  const child = spawn(process.execPath, [path.join(packageRoot, 'bin/run.js'), 'serve', '--port', String(opts.port ?? 0), ...args], {
    env: childEnv(args, opts.db, opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const stderrWaiters: Array<{ text: string; resolve: () => void }> = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of stderrWaiters.splice(0)) {
      if (err.includes(w.text)) w.resolve();
      else stderrWaiters.push(w);
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    void exited.then(({ code, signal }) => reject(new Error(`payctl serve exited (${code ?? signal}) before listening: ${err}${out}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /payctl serving (http:\/\/[^\s/]+)\/api\/v1/.exec(out);
      if (!m) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.on('data', (more: Buffer) => (out += more.toString()));
      resolve({
        url: m[1]!,
        pid: child.pid!,
        child,
        stdout: () => out,
        stderr: () => err,
        exited,
        waitForStderr: (text) =>
          err.includes(text) ? Promise.resolve() : new Promise<void>((r) => stderrWaiters.push({ text, resolve: r })),
        rss: () => {
          const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
          return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
        },
      });
    });
  });
}

/** kill -9 and wait for the process to be gone. */
export async function killHard(s: ServeProcess): Promise<void> {
  s.child.kill('SIGKILL');
  await s.exited;
}

export interface LoadResult<T> {
  ok: T[];
  /** Requests that failed at the network level (connection refused/reset): never answered. */
  networkErrors: number;
  statuses: Map<number, number>;
}

/**
 * Closed-loop load: `concurrency` workers each send one request after another until
 * `stop()` returns true or the server stops answering. `send` returns the outcome to
 * keep (or undefined) and throws only on network failure.
 */
export async function runLoad<T>(opts: {
  concurrency: number;
  send: (worker: number, seq: number) => Promise<{ status: number; value?: T }>;
  stop: () => boolean;
  /** Stop every worker at the first network error (default true: the server is gone). */
  stopOnNetworkError?: boolean;
}): Promise<LoadResult<T>> {
  const result: LoadResult<T> = { ok: [], networkErrors: 0, statuses: new Map() };
  let seq = 0;
  let dead = false;
  const worker = async (w: number) => {
    while (!dead && !opts.stop()) {
      try {
        const r = await opts.send(w, seq++);
        result.statuses.set(r.status, (result.statuses.get(r.status) ?? 0) + 1);
        if (r.value !== undefined) result.ok.push(r.value);
      } catch {
        result.networkErrors++;
        if (opts.stopOnNetworkError !== false) dead = true;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, (_, w) => worker(w)));
  return result;
}

/** A JSON POST/GET with fetch: status and parsed body (throws on network failure). */
export async function httpJson(
  url: string,
  method: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers; text: string }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = opts.key;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}
