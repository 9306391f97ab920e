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

/**
 * Rows read per page: a table's first page is small and each next one doubles while the
 * pages stay under PAGE_BYTES (halving when one passes it), so a page of fat rows (a
 * document near its 1 MiB bound) holds a few MiB, and a page of small rows 1,000.
 */
const PAGE_ROWS = 1000;
const FIRST_PAGE_ROWS = 4;
const PAGE_BYTES = 2 * 1024 * 1024;

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
      let after: string | number | undefined;
      let size = FIRST_PAGE_ROWS;
      written[t.table] = 0;
      do {
        pacer.start();
        const page = await db.repos.sandboxFiles.page(db, t, groupId, after, size);
        // One string per page: a write to the stream per page, not per row.
        let text = '';
        for (const row of page.rows) text += emit(rowLine(t.table, row));
        written[t.table] += page.rows.length;
        rows += page.rows.length;
        size = text.length > PAGE_BYTES ? Math.max(1, size >> 1) : text.length < PAGE_BYTES / 2 ? Math.min(PAGE_ROWS, size * 2) : size;
        if (text) yield text;
        progress?.(rows, Math.max(rows, total), 'Exporting rows');
        await pacer.rest();
        after = page.next;
      } while (after !== undefined);
    }
    yield trailerLine({ end: FILE_FORMAT, lines: n, counts: written, sha256: hash.digest('hex') });
  }
  return { header, lines: lines() };
}
