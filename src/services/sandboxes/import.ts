// A new sandbox from an export file (src/domain/sandbox-file.ts). Two passes: the file
// is checked whole as it arrives (every line, the trailer's counts and SHA-256) while it
// is spooled to a temporary file, nothing written meanwhile, so a corrupt or cut-off
// file is refused with its line and rule and leaves nothing behind; then its rows are
// written in chunks, as a fork's are (each a write of its own, paced so other groups'
// writes go in between), under a job record that keeps the new group out of due work
// and its keys refused (409) until the last chunk makes it active. Every row gets a new
// id (an import can sit beside its source in one database); references, and ids inside
// text (event payloads), point at the new ids. Keys and webhook secrets are new.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Platform } from '../platform.js';
import { platformClock, withGroupClock } from '../platform.js';
import { clockSettingOn } from '../clock/clock.js';
import { CLOCK_MODES, clockOfRow, sandboxClockAnswer, type GroupClockSetting } from '../../domain/clock-modes.js';
import type { RequestContext } from '../context.js';
import type { Progress } from '../clock/chunks.js';
import { LATE, untilAnswer, useCase, type UseCaseIo } from '../use-case.js';
import { CHUNK_WRITE, chunkDeadline, Pacer, pastDeadline } from '../clock/chunks.js';
import { FileChecker, fileRefused, remapRow, type FileHeader, type Row } from '../../domain/sandbox-file.js';
import type { FileIds } from '../../domain/sandbox-file-ids.js';
import { importSandboxInput, type ImportedSandbox, type ImportProgressState } from '../../domain/sandboxes.js';
import { ttlMs } from '../../domain/sandbox-ttl.js';
import type { FileTable } from '../../store/interfaces/sandbox-files.js';
import { invoiceSlug, SLUG_BYTES } from '../../domain/catalog.js';
import { newWebhookSecret } from '../webhooks/endpoints.js';
import { newId } from '../../lib/ids.js';
import { AppError, notFound } from '../../errors.js';
import { isRefusedRow, refusedRowWords } from '../../store/errors.js';
import { ENV, envInteger, type Env } from '../../config/env.js';
import { unitOfWork } from '../unit-of-work.js';
import { HeapGuard } from '../../lib/heap-guard.js';
import { issueKeys } from './keys.js';
import { beginLease } from './leases.js';
import { dropInChunks } from './drop-run.js';

/** A line longer than this is refused (a row is a few KiB; this bounds what one line can make the server hold). */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Rows per INSERT statement (a chunk sends statements until its budget is spent). */
const BATCH_ROWS = 200;
/**
 * Bytes of rows read ahead of the writer, and of one INSERT: whatever the rows' size (fat
 * rows near the line cap, or a million small ones), the server holds a few MiB of them.
 * Every row held across a wait is kept by the garbage collector until a full collection,
 * so the fewer held at once, the less the heap grows (docs/operations.md).
 */
const QUEUE_BYTES = 2 * 1024 * 1024;
const BATCH_BYTES = 1024 * 1024;
/** An import whose last chunk is older than this (real time) was stopped (its server was killed): the tick drops it. */
export const STALE_IMPORT_MS = 120_000;

export interface ImportOptions {
  name?: string;
  /** The new sandbox's time to live (ms of real time without a request: leases.ts). */
  ttlMs?: number;
}

/**
 * POST /api/v1/sandboxes/import and `payctl sandbox import`: the file (a byte stream) with
 * the request's fields. A file announced over the byte cap (`size`: an upload's
 * Content-Length) is refused before a byte of it is read.
 */
export const importSandbox = useCase({
  input: importSandboxInput,
  async run(p: Platform, ctx: RequestContext, input, io): Promise<ImportedSandbox> {
    const cap = importCaps(p.env).bytes;
    if ((input.size ?? 0) > cap) throw overCap('bytes', cap, ENV.importMaxBytes);
    const opts = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.ttl !== undefined ? { ttlMs: ttlMs(input.ttl) } : {}) };
    return importFrom(p, ctx, input.file, opts, io);
  },
});

/**
 * The lines of a byte stream, each without its \n; `cut` when the stream ended inside it
 * (no \n after it). A line's pieces are joined once, at its end (a fat line is not copied
 * again with every chunk), and a line over MAX_LINE_BYTES is refused as it grows.
 */
export async function* splitLines(source: AsyncIterable<Buffer | string>): AsyncGenerator<{ text: string; cut: boolean }> {
  let parts: Buffer[] = [];
  let partsBytes = 0;
  let lineNo = 0;
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    let start = 0;
    let at: number;
    while ((at = chunk.indexOf(10, start)) >= 0) {
      lineNo++;
      const piece = chunk.subarray(start, at);
      const text = parts.length ? Buffer.concat([...parts, piece]).toString('utf8') : piece.toString('utf8');
      parts = [];
      partsBytes = 0;
      start = at + 1;
      yield { text, cut: false };
    }
    if (start < chunk.length) {
      parts.push(Buffer.from(chunk.subarray(start)));
      partsBytes += chunk.length - start;
      if (partsBytes > MAX_LINE_BYTES) throw fileRefused(lineNo + 1, `is longer than ${MAX_LINE_BYTES} bytes`);
    }
  }
  if (parts.length) yield { text: Buffer.concat(parts).toString('utf8'), cut: true };
}

/** The caps on one import (docs/sandboxes.md, "Caps"): a file over one is refused with 413 naming it. */
export interface ImportCaps {
  bytes: number;
  rows: number;
}

export function importCaps(env: Env): ImportCaps {
  return { bytes: envInteger(env, ENV.importMaxBytes), rows: envInteger(env, ENV.importMaxRows) };
}

/** 413 naming the cap a file passed. */
export const overCap = (what: 'bytes' | 'rows', cap: number, name: string) =>
  new AppError(413, 'invalid_request', `the sandbox file is refused: it has more than ${cap} ${what}, the cap of one import (${name}); split the sandbox or raise the cap`);

/** The bytes of `source`, refused with 413 once they pass `cap`. */
async function* capped(source: AsyncIterable<Buffer | string>, cap: number): AsyncGenerator<Buffer | string> {
  let n = 0;
  for await (const chunk of source) {
    n += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (n > cap) throw overCap('bytes', cap, ENV.importMaxBytes);
    yield chunk;
  }
}

/** What the first pass learnt of a file that passed every check. */
interface CheckedFile {
  header: FileHeader;
  spool: string;
  group: Row;
  ids: FileIds;
  /** Old → new ids of the tables an answer lists (FileTable.inIdMap). */
  listed: Record<string, Array<[string, string]>>;
  counts: Record<string, number>;
  tables: FileTable[];
}

/** Pass one: check every line and spool the rows; refused (nothing written, nothing kept) at the first broken rule. */
async function checkAndSpool(p: Platform, source: AsyncIterable<Buffer | string>, caps: ImportCaps): Promise<CheckedFile> {
  const db = p.db;
  const tables = await db.repos.sandboxFiles.tables(db);
  const current = await db.repos.sandboxFiles.schemaVersion(db);
  const checker = new FileChecker(
    {
      order: tables.map((t) => t.table),
      columns: Object.fromEntries(tables.map((t) => [t.table, t.columns])),
      ids: Object.fromEntries(tables.map((t) => [t.table, t.id])),
      owners: Object.fromEntries(tables.map((t) => [t.table, t.owner])),
      refs: Object.fromEntries(tables.map((t) => [t.table, t.refs])),
    },
    newId,
    randomBytes(5),
    new Set(tables.filter((t) => t.inIdMap).map((t) => t.table)),
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'payctl-import-'));
  const spool = path.join(dir, 'rows.jsonl');
  let fh: FileHandle | undefined;
  try {
    fh = await open(spool, 'w');
    let pending = '';
    let group: Row | undefined;
    const heap = new HeapGuard();
    for await (const { text, cut } of splitLines(capped(source, caps.bytes))) {
      heap.handled(text.length);
      // The header and the trailer are lines too: a file of `rows` rows has rows + 2.
      if (checker.lines >= caps.rows + 2) throw overCap('rows', caps.rows, ENV.importMaxRows);
      let kept;
      try {
        kept = checker.line(text);
      } catch (err) {
        // The stream ended inside this line: say so rather than that it is not JSON.
        if (cut) throw fileRefused(checker.lines, 'the file ends inside this line: it was cut off');
        throw err;
      }
      if (checker.lines === 1) checker.checkSchema(current);
      if (!kept) continue;
      if (kept.table === 'groups') group = kept.row;
      // The line's own text when its row is unchanged (a fat row is not serialised again).
      else pending += `${checker.lines}\t${kept.verbatim ? text : JSON.stringify({ table: kept.table, row: kept.row })}\n`;
      if (pending.length > 1 << 20) {
        // Bytes out of the heap, and no row kept, while the write waits (docs/operations.md, "Sandbox files and drops: caps and memory").
        const out = Buffer.from(pending);
        pending = '';
        kept = undefined;
        await fh.write(out);
      }
    }
    checker.end();
    await fh.write(pending);
    await fh.close();
    fh = undefined;
    return { header: checker.header!, spool, group: group!, ids: checker.ids, listed: checker.listedIds, counts: checker.counts, tables };
  } catch (err) {
    await fh?.close();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Rows of the spool (`<line>\t<row line>`), in file order: [line, table, row, its size in the spool]. */
async function* spooledRows(spool: string): AsyncGenerator<Spooled> {
  for await (const { text } of splitLines(createReadStream(spool))) {
    const tab = text.indexOf('\t');
    const { table, row } = JSON.parse(text.slice(tab + 1)) as { table: string; row: Row };
    yield [Number(text.slice(0, tab)), table, row, text.length];
  }
}

type Spooled = [number, string, Row, number];

/** Imports running in this process, by new group id (the tick leaves them alone). */
const running = new Map<string, Promise<void>>();

/**
 * Import a sandbox file as a new sandbox. Refused with 400 naming the line and the rule
 * before anything is written when the file breaks one; a row the database refuses while
 * the rows are written drops what was written and is refused the same way. Without
 * `answerWithinMs` the answer waits for every row; with it, the answer comes when the
 * sandbox is whole or after that long (then with status `importing` and its progress:
 * the route's 202), and the writing goes on.
 */
async function importFrom(p: Platform, ctx: RequestContext, source: AsyncIterable<Buffer | string>, opts: ImportOptions, io: UseCaseIo): Promise<ImportedSandbox> {
  const file = await checkAndSpool(p, source, importCaps(p.env));
  let started: Started;
  try {
    started = await startImport(p, ctx, file, opts, io.progress);
  } catch (err) {
    // Failed before its rows were being written: the spool goes with the request.
    await rm(path.dirname(file.spool), { recursive: true, force: true });
    throw err;
  }
  return answerImport(p, file, started, io);
}

interface Started {
  run: Promise<void>;
  groupId: string;
  name: string;
  setting: GroupClockSetting;
  at: string;
  keys: Record<string, string>;
  secrets: Record<string, string>;
}

/** The new group (status importing) with its keys, and the writing of its rows started (it removes the spool when it ends). */
async function startImport(p: Platform, ctx: RequestContext, file: CheckedFile, opts: ImportOptions, progress?: Progress): Promise<Started> {
  const { header, ids, listed } = file;
  const base = platformClock(p);
  await base.refresh();
  // The new sandbox's clock starts where the exported one's was, in its mode (a file from before modes: running).
  const mode = CLOCK_MODES.find((m) => m === file.group.clock_mode) ?? 'running';
  const setting = clockSettingOn(base, mode, Date.parse(header.source.clock), Number(file.group.clock_rate ?? 1));
  const groupId = ids.get(String(file.group.id))!;
  const at = withGroupClock(p, groupId, setting).clock.nowIso();
  const name = opts.name ?? header.source.name;
  const group = {
    ...remapRow(file.group, ids),
    id: groupId,
    name,
    status: 'importing',
    sandbox: 1,
    clock_offset_ms: setting.offset_ms,
    clock_mode: setting.mode,
    clock_rate: setting.rate,
    clock_at_ms: setting.at_ms,
    clock_since_ms: setting.since_ms,
    created_at: at,
    updated_at: at,
  };
  // Secrets are made now, so the answer has them whenever it comes.
  const secrets = Object.fromEntries((listed.webhook_endpoints ?? []).map(([, id]) => [id, newWebhookSecret()]));
  let keys: Record<string, string>;
  try {
    keys = await unitOfWork(ctx, async ({ tx }) => {
      await tx.repos.sandboxFiles.beginImport(tx, group, header.source.group_id, rowsOf(file.counts), Date.now());
      await beginLease(tx, groupId, opts.ttlMs);
      return issueKeys(tx, groupId, at);
    });
  } catch (err) {
    await rm(path.dirname(file.spool), { recursive: true, force: true });
    throw err;
  }
  const run = writeRows(p, file, groupId, secrets, progress);
  running.set(groupId, run);
  run.then(
    () => running.delete(groupId),
    () => running.delete(groupId),
  );
  return { run, groupId, name, setting, at, keys, secrets };
}

/** The answer: when the rows are all written, or (with an answer budget) after it with the progress so far. */
async function answerImport(p: Platform, file: CheckedFile, started: Started, io: UseCaseIo): Promise<ImportedSandbox> {
  const { header, listed } = file;
  const { run, groupId, name, setting, at, keys, secrets } = started;
  const outcome = await untilAnswer(run, io);
  const answer: ImportedSandbox = {
    group_id: groupId,
    name,
    status: 'active',
    processor_id: listed.processors?.[0]?.[1] ?? '',
    linked_account_id: listed.linked_accounts?.[0]?.[1] ?? '',
    keys,
    webhook_secrets: secrets,
    clock: withGroupClock(p, groupId, setting).clock.nowIso(),
    ...sandboxClockAnswer(setting),
    created_at: at,
    imported_from: { group_id: header.source.group_id, name: header.source.name, exported_at: header.exported_at, schema_version: header.schema_version },
    id_map: Object.fromEntries(Object.values(listed).flat()),
    rows: file.counts,
  };
  if (outcome !== LATE) return answer;
  run.catch((err: unknown) => process.stderr.write(`import of sandbox ${header.source.group_id} as ${groupId} stopped: ${String(err)}; what it wrote was dropped\n`));
  const state = await importState(p, groupId);
  return state ? { ...answer, status: 'importing', import: state } : answer;
}

const importDropped = () => notFound('sandbox (it was dropped while it was being imported)');

/** Rows of a file but its group's own. */
const rowsOf = (counts: Record<string, number>) => Object.entries(counts).reduce((n, [t, c]) => (t === 'groups' ? n : n + c), 0);

/**
 * Pass two: the spooled rows written in chunks (each takes rows until its budget is
 * spent), each row pointed at the new ids, fresh secrets in its secret columns; then the
 * last write counts the transactions into the reports and makes the group active. On a
 * failure what was written is dropped.
 */
async function writeRows(p: Platform, file: CheckedFile, groupId: string, secrets: Record<string, string>, progress?: Progress): Promise<void> {
  const byTable = new Map(file.tables.map((t) => [t.table, t]));
  const total = rowsOf(file.counts);
  const pacer = new Pacer(p.db);
  const source = spooledRows(file.spool)[Symbol.asyncIterator]();
  let queue: Spooled[] = [];
  let queued = 0;
  let ended = false;
  let done = 0;
  let lines = '';
  const heap = new HeapGuard();
  try {
    for (;;) {
      // Rows are read before the write: the chunk's transaction does no file I/O.
      while (!ended && queue.length < BATCH_ROWS * 8 && queued < QUEUE_BYTES) {
        const next = await source.next();
        if (next.done) ended = true;
        else {
          queue.push(next.value);
          queued += next.value[3];
        }
      }
      if (queue.length === 0) break;
      pacer.start();
      const deadline = chunkDeadline();
      const taken = await p.db.write(async (tx) => {
        let n = 0;
        do {
          const table = queue[n]![1];
          const rows: Row[] = [];
          const first = queue[n]![0];
          let bytes = 0;
          while (n < queue.length && rows.length < BATCH_ROWS && bytes < BATCH_BYTES && queue[n]![1] === table) {
            const [, , row, size] = queue[n++]!;
            bytes += size;
            rows.push(fill(byTable.get(table)!, remapRow(row, file.ids), secrets));
          }
          lines = `${first}–${queue[n - 1]![0]}`;
          await tx.repos.sandboxFiles.insertRows(tx, table, rows);
        } while (n < queue.length && !pastDeadline(deadline));
        // Dropped meanwhile (DELETE of the sandbox): this chunk's rows go with it.
        if (!(await tx.repos.sandboxFiles.noteImport(tx, groupId, done + n, queue[n - 1]![1], Date.now()))) throw importDropped();
        return n;
      }, CHUNK_WRITE);
      for (let i = 0; i < taken; i++) {
        queued -= queue[i]![3];
        heap.handled(queue[i]![3]);
      }
      queue = queue.slice(taken);
      done += taken;
      progress?.(done, total, 'Importing rows');
      await pacer.rest();
    }
    await p.db.write(async (tx) => {
      const g = await tx.repos.sandboxes.find(tx, groupId);
      if (!g) throw importDropped();
      await tx.repos.sandboxFiles.finishImport(tx, groupId, withGroupClock(p, groupId, clockOfRow(g)).clock.nowIso());
    }, CHUNK_WRITE);
  } catch (err) {
    await dropInChunks(p, groupId).catch(() => undefined);
    if (err instanceof AppError || !isRefusedRow(err)) throw err;
    throw fileRefused({ lines }, `the database refused a row of these lines: ${refusedRowWords(err)}`);
  } finally {
    await source.return?.(undefined);
    await rm(path.dirname(file.spool), { recursive: true, force: true });
  }
}

/** A row's secret columns, made anew (an endpoint's secret is also kept for the answer, by its new id). */
function fill(t: FileTable, row: Row, secrets: Record<string, string>): Row {
  for (const [column, kind] of Object.entries(t.fresh)) {
    if (kind === 'invoice_slug') row[column] = invoiceSlug(randomBytes(SLUG_BYTES));
    else row[column] = secrets[String(row[t.id ?? 'id'])] ?? (secrets[String(row[t.id ?? 'id'])] = newWebhookSecret());
  }
  return row;
}

/** How far an import is, as the API shows it (undefined once it is over). */
export async function importState(p: Platform, groupId: string): Promise<ImportProgressState | undefined> {
  const j = await p.db.repos.sandboxFiles.importProgress(p.db, groupId);
  return j && { source_id: j.source_id, table: j.table, rows_imported: j.rows_imported, rows_total: j.rows_total };
}

/** Drop imports whose server stopped writing them (a kill -9: the file is gone with it). Returns imports dropped. */
export async function dropStaleImports(p: Platform): Promise<number> {
  let n = 0;
  for (const id of await p.db.repos.sandboxFiles.staleImports(p.db, Date.now() - STALE_IMPORT_MS)) {
    if (running.has(id)) continue;
    await dropInChunks(p, id);
    n++;
  }
  return n;
}
