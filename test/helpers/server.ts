// The real server on port 0 over a temporary database with demo data, and a small
// fetch wrapper that sends JSON and returns status, headers and parsed body.
import { demoPlatform } from './platform.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src/http/app.js';
import type { Platform } from '../../src/services/platform.js';
import { seedDemoInGroup, type DemoOutput } from '../../src/dev/demo.js';
import type { Env } from '../../src/config/env.js';

export interface TestServer {
  url: string;
  p: Platform;
  demo: DemoOutput;
  /** The database file (for a second process on the same database). */
  dbPath: string;
  server: RunningServer['server'];
  call(method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: string }): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/** `env` replaces process.env for the platform (e.g. PAYCTL_SMTP_URL of a test SMTP server). */
export async function startTestServer(opts: Partial<ServerOptions> & { env?: Env } = {}): Promise<TestServer> {
  const { env, ...serverOpts } = opts;
  const { p, demo, dbPath } = await demoPlatform({ env });
  const server = await startServer({ platform: p, port: 0, tickMs: 0, accessLog: 'off', seedDemo: seedDemoInGroup, ...serverOpts });
  return {
    url: server.url,
    p,
    demo,
    dbPath,
    server: server.server,
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.key) headers.authorization = o.key;
      let body: string | undefined = o.raw;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(server.url + path, { method, headers, body });
      // An event stream stays open: its head is the answer here (read streams with an SSE client).
      const stream = res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
      const text = stream ? (await res.body?.cancel(), '') : await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async close() {
      await server.close();
      await p.close();
    },
  };
}
