// A sandbox's whole state as a file (src/domain/sandbox-file.ts: JSON lines, a header,
// a line per row, a trailer with the counts and a SHA-256), read a page at a time so a
// large sandbox streams in bounded memory. Secrets are never in it (API keys, webhook
// secrets, payment-link sessions, idempotency records: the store's NOT_IN_FILE and its
// omitted columns); cards are what the store keeps (brand, first six, last four).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import type { RequestContext } from '../context.js';
import { useCase } from '../use-case.js';
import { platformClock } from '../platform.js';
import { groupTimeOn } from '../clock/clock.js';
import { clockOfRow } from '../../domain/clock-modes.js';
import { FILE_FORMAT, FILE_FORMAT_VERSION, headerLine, rowLine, trailerLine, type FileHeader } from '../../domain/sandbox-file.js';
import { notFound, sandboxForking, sandboxImporting } from '../../errors.js';
import { Pacer, type Progress } from '../clock/chunks.js';
import type { FileRow } from '../../store/interfaces/sandbox-files.js';

/**
 * A table is read in ranges of up to RANGE_ROWS rows (one read finds where a range ends)
 * and a range in pages: a range's first page is small and each next one doubles while
 * the pages stay under PAGE_BYTES (halving when one passes it), so a page of fat rows (a
 * document near its 1 MiB bound) is one row, and a page of small rows a few hundred. The
 * page's text goes out in pieces of at most PIECE_CHARS characters. Why so small
 * (docs/operations.md, "Sandbox files and drops: caps and memory"): what is alive when
 * the garbage collector runs is copied and kept until a full collection, and the
 * heap and the allocator's arenas then grow with it — rows read at once and a text
 * above V8's large-object size (128 KiB) are.
 */
const RANGE_ROWS = 1000;
const FIRST_PAGE_ROWS = 4;
const PAGE_BYTES = 256 * 1024;
const PIECE_CHARS = 32 * 1024;

export interface SandboxExport {
  header: FileHeader;
  /** The file's lines, each with its \n: the header, the rows, the trailer. */
  lines: AsyncIterable<string>;
}

/** GET /api/v1/sandboxes/{group_id}/export and `payctl sandbox export`: the file's header and its lines (`io.progress` hears of the rows). */
export const exportSandbox = useCase({
  input: z.object({ group_id: z.string() }),
  run: (p: Platform, ctx: RequestContext, input, io) => sandboxFile(p, input.group_id, io.progress),
});

/**
 * Export sandbox `groupId`: checked here (404 unknown, 409 while it is forking or
 * importing), so a caller can answer an error before the first byte; the lines are read
 * as they are taken. A sandbox written to meanwhile gives each row as its page reads it
 * (export one at rest for a point-in-time copy); the trailer counts what the file holds.
 * `progress` hears rows written and the rows the sandbox had when the export began.
 */
async function sandboxFile(p: Platform, groupId: string, progress?: Progress): Promise<SandboxExport> {
  const db = p.db;
  const g = await db.repos.sandboxes.find(db, groupId);
  if (!g) throw notFound('sandbox');
  if (g.status === 'forking') throw sandboxForking(groupId);
  if (g.status === 'importing') throw sandboxImporting(groupId);
  const base = platformClock(p);
  await base.refresh();
  const tables = await db.repos.sandboxFiles.tables(db);
  const counts = await db.repos.sandboxFiles.count(db, groupId);
  const now = base.now().getTime();
  const header: FileHeader = {
    format: FILE_FORMAT,
    format_version: FILE_FORMAT_VERSION,
    schema_version: await db.repos.sandboxFiles.schemaVersion(db),
    exported_at: new Date(now).toISOString(),
    source: { group_id: groupId, name: g.name, clock: new Date(groupTimeOn(base, clockOfRow(g))).toISOString() },
    tables: tables.map((t) => t.table),
    counts,
  };
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  async function* lines(): AsyncGenerator<string> {
    const hash = createHash('sha256');
    const written: Record<string, number> = {};
    // Paced like a fork's chunks: after a page, while others are writing, rest as long as it took.
    const pacer = new Pacer(db);
    let n = 0;
    let rows = 0;
    const emit = (line: string) => {
      hash.update(line);
      n++;
      return line;
    };
    yield emit(headerLine(header));
    for (const t of tables) {
      written[t.table] = 0;
      let size = FIRST_PAGE_ROWS;
      let after: string | number | undefined;
      for (;;) {
        pacer.start();
        const upTo = await db.repos.sandboxFiles.rangeEnd(db, t, groupId, after, RANGE_ROWS);
        if (upTo === undefined) break;
        let from = after;
        for (;;) {
          const page = await db.repos.sandboxFiles.page(db, t, groupId, from, size, upTo);
          const read = page.rows as (FileRow | undefined)[];
          let text = '';
          let bytes = 0;
          for (let i = 0; i < read.length; i++) {
            text += emit(rowLine(t.table, read[i]!));
            // A row is dropped once it is text: what is left of the page is all that is alive of it.
            read[i] = undefined;
            if (text.length >= PIECE_CHARS) {
              bytes += text.length;
              yield text;
              text = '';
            }
          }
          bytes += text.length;
          if (text) yield text;
          text = '';
          written[t.table] += read.length;
          rows += read.length;
          size = bytes > PAGE_BYTES ? Math.max(1, size >> 1) : bytes < PAGE_BYTES / 2 ? Math.min(RANGE_ROWS, size * 2) : size;
          progress?.(rows, Math.max(rows, total), 'Exporting rows');
          await pacer.rest();
          if (page.next === undefined) break;
          from = page.next;
          pacer.start();
        }
        if (upTo === null) break;
        after = upTo;
      }
    }
    yield trailerLine({ end: FILE_FORMAT, lines: n, counts: written, sha256: hash.digest('hex') });
  }
  return { header, lines: lines() };
}
