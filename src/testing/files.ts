// Sandbox files in the kit (docs/sandboxes.md "Export and import"): `sb.export()` writes
// a sandbox's state to a file, `payctl.importSandbox(file)` makes a new sandbox of one.
// A fork or an import still copying answers 202 first: the kit waits until it is active.
import { createReadStream, createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface ImportOptions {
  /** The new sandbox's name (default: the exported one's). */
  name?: string;
  /** Its time to live (default `1h`, as `sandbox()`'s). */
  ttl?: string | number;
  /** Point its copy of the collector endpoint (or a new one) at this process's collector (default true). */
  webhooks?: boolean;
}

interface Server {
  url: string;
  adminToken: string;
  stopped?: string;
}

/** A call of the kit's to the server: refused with the reason once the server was stopped, and a connection failure named as one. */
export async function reach(server: Server, url: URL | string, init: RequestInit): Promise<Response> {
  if (server.stopped !== undefined) throw new Error(server.stopped);
  try {
    return await fetch(url, init);
  } catch (err) {
    if (server.stopped !== undefined) throw new Error(server.stopped);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`payctl: the server at ${server.url} does not answer (${cause?.code ?? cause?.message ?? (err as Error).message}): did it stop or crash?`, { cause: err });
  }
}

const admin = (server: Server) => ({ authorization: server.adminToken, connection: 'close' });

async function failure(what: string, res: Response): Promise<Error> {
  const text = await res.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    // not JSON: the text as it is
  }
  return new Error(`payctl: ${what} answered ${res.status}: ${message}`);
}

/** Waits until a fork's or an import's new sandbox is active (its copy whole); resolves with its state. */
export async function waitActive(server: Server, groupId: string, timeoutMs = 120_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await reach(server, new URL(`/api/v1/sandboxes/${encodeURIComponent(groupId)}`, server.url), { headers: admin(server) });
    if (res.status !== 200) throw await failure(`reading sandbox ${groupId}`, res);
    const state = (await res.json()) as Record<string, unknown>;
    if (state.status === 'active') return { status: 'active' };
    if (Date.now() > deadline) throw new Error(`payctl: sandbox ${groupId} is still ${String(state.status)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Write sandbox `groupId`'s export to `file` (default: a new file in the temporary folder); resolves with its path. */
export async function exportFile(server: Server, groupId: string, file?: string): Promise<string> {
  const target = file ?? path.join(os.tmpdir(), `payctl-sandbox-${groupId}-${Date.now()}.jsonl`);
  const res = await reach(server, new URL(`/api/v1/sandboxes/${encodeURIComponent(groupId)}/export`, server.url), { headers: admin(server) });
  if (res.status !== 200 || !res.body) throw await failure(`exporting sandbox ${groupId}`, res);
  await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(target));
  return target;
}

/** Import `file` as a new sandbox: the import's answer (keys, webhook secrets, id map), once it is active. */
export async function importFile(server: Server, file: string, opts: { name?: string; ttl: string | number }): Promise<Record<string, unknown>> {
  const url = new URL('/api/v1/sandboxes/import', server.url);
  if (opts.name !== undefined) url.searchParams.set('name', opts.name);
  url.searchParams.set('ttl', String(opts.ttl));
  const res = await reach(server, url, {
    method: 'POST',
    headers: { ...admin(server), 'content-type': 'application/x-ndjson' },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 201 && res.status !== 202) throw await failure(`importing ${file}`, res);
  const created = (await res.json()) as Record<string, unknown>;
  return res.status === 202 ? { ...created, ...(await waitActive(server, String(created.group_id))) } : created;
}
