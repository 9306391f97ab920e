// HTTP helpers of the sandbox-file benchmarks (sandbox-files.ts, import-bounds.ts): calls
// with the bench's admin token that stream a file up or an answer down, waiting for a
// sandbox to be active, and a server's peak memory reset.
import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { Served } from './processes.js';

export const ADMIN = 'padm_bench_admin_token';

/** A call: `file` streamed as the body, or `json`; an answer of 200 streamed to `out`; `key` instead of the admin token. */
export function call(url: string, method: string, opts: { file?: string; out?: string; json?: unknown; key?: string } = {}): Promise<{ status: number; body: string }> {
  const type = opts.file ? 'application/x-ndjson' : 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { authorization: opts.key ?? ADMIN, 'content-type': type } }, (res) => {
      if (opts.out && res.statusCode === 200) {
        const sink = createWriteStream(opts.out);
        res.pipe(sink);
        sink.on('finish', () => resolve({ status: 200, body: '' }));
        sink.on('error', reject);
        return;
      }
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (opts.file) createReadStream(opts.file).pipe(req);
    else req.end(opts.json === undefined ? undefined : JSON.stringify(opts.json));
  });
}

/** Poll a sandbox until it is active (after a fork's or an import's 202), an hour at most. */
export async function untilActive(url: string, id: string): Promise<void> {
  for (let i = 0; i < 36_000; i++) {
    const r = await call(`${url}/api/v1/sandboxes/${id}`, 'GET');
    if (r.status !== 200) throw new Error(`GET sandbox answered ${r.status}: ${r.body.slice(0, 200)}`);
    if ((JSON.parse(r.body) as { status: string }).status === 'active') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`sandbox ${id} not active after an hour`);
}

/** Reset the server's peak resident size (VmHWM) where allowed; its resident size now. */
export function resetPeak(server: Served): number {
  try {
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  } catch {
    // Not allowed: the peak is the process's whole life's.
  }
  return server.rss();
}
