// A sandbox as a file (extension): export streams its whole state as JSON lines;
// import makes a new sandbox from such a file (docs/sandboxes.md, "Export and import").
// Authorised by the sandbox admin token, like the other sandbox routes.
import { once } from 'node:events';
import { adminAuth, answerBudget, JsonResponse, type RouteDef, route, StreamResponse } from '../route.js';
import { importedSandboxSchema, importSandboxQuerySchema } from '../../domain/sandboxes.js';
import { exportSandbox } from '../../services/sandboxes/export.js';
import { importSandbox } from '../../services/sandboxes/import.js';
import { execute, executeRaw, withParams } from '../../services/use-case.js';
import { FILE_FORMAT, FILE_FORMAT_VERSION } from '../../domain/sandbox-file.js';
import { ENV } from '../../config/env.js';
import { AppError } from '../../errors.js';

const tag = 'Sandboxes';

/**
 * The upload as it arrives; a connection the client closed mid-upload ends it with the
 * client's error, not a store's (an `aborted` socket error read as an outage would pause
 * every group's background work).
 */
async function* uploadOf(upload: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const it = upload[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await it.next();
    } catch (err) {
      throw new AppError(400, 'invalid_request', `the upload was cut off before the file ended (${(err as Error).message}): nothing of it was imported`);
    }
    if (next.done) return;
    yield next.value;
  }
}
export const SANDBOX_FILE_TYPE = 'application/x-ndjson';

export const sandboxFileRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/api/v1/sandboxes/:group_id/export',
    summary: "A sandbox's whole state as a file (JSON lines): every resource, events, clock, fault rules, webhook endpoints; no secrets",
    description:
      `A ${FILE_FORMAT} file, format version ${FILE_FORMAT_VERSION}: a header line (format, versions, the sandbox's clock, its tables and counts), one line per row ({"table", "row"}), ` +
      'a trailer line with the counts and the SHA-256 of every byte before it (a cut-off or changed file is refused by the import). ' +
      'Never in it: API keys, webhook secrets, payment-link sessions, idempotency records, webhook deliveries; cards are what the store keeps (brand, first six, last four). ' +
      'Streamed as it is read, a page at a time; the rows are each as its page reads it (export a sandbox at rest for a point-in-time copy). 409 while the sandbox is forking or importing.',
    tag,
    extension: true,
    auth: adminAuth,
    produces: SANDBOX_FILE_TYPE,
    handler: async (c) => {
      const file = await execute(exportSandbox, c.platform, c.ctx, { group_id: c.params.group_id });
      return new StreamResponse(async ({ res, signal }) => {
        res.writeHead(200, {
          'Content-Type': SANDBOX_FILE_TYPE,
          'Content-Disposition': `attachment; filename="sandbox-${c.params.group_id}.jsonl"`,
        });
        // A failure after the first byte cannot change the status: the file then has no trailer, and an import refuses it.
        try {
          // Not `for await`: its variable would keep the piece written alive while the next is read (docs/operations.md).
          const pieces = file.lines[Symbol.asyncIterator]();
          for (;;) {
            let piece: IteratorResult<string> | undefined = await pieces.next();
            if (piece.done || signal.aborted) break;
            const ready = res.write(piece.value);
            piece = undefined;
            if (!ready) await once(res, 'drain', { signal });
          }
        } finally {
          res.end();
        }
      });
    },
  }),
  {
    method: 'POST',
    path: '/api/v1/sandboxes/import',
    summary: 'Make a new sandbox from an export file: new ids, new API keys, new webhook secrets, the same clock',
    description:
      'The body is the file as `GET …/export` wrote it (any size; it is read as it arrives). It is checked whole before anything is written: a line that breaks a rule, a cut-off or changed file (trailer counts, SHA-256), ' +
      'a newer format or schema version is a 400 naming the line and the rule, and nothing is left behind. A file of an older schema version is brought up to date row by row. ' +
      'Every row gets a new id (the import can sit beside its source); references and the ids inside event payloads point at the new ones; id_map lists the new id of each processor, linked account, customer, stored payment method, plan, subscription, product, partner, invoice, payment link and webhook endpoint. ' +
      "The sandbox's clock starts at the exported sandbox's time. The rows are written in short chunks that let other groups' writes through: 201 when they are all written within the answer budget (10 s, PAYCTL_IMPORT_ANSWER_MS); " +
      "else 202 with status importing and the progress (import): poll GET /api/v1/sandboxes/{group_id} until status is active; its keys are refused with 409 until then. `?name=` names the new sandbox (default: the exported one's name); `?ttl=` gives it a time to live, as on `POST /api/v1/sandboxes` (default: none).",
    tag,
    extension: true,
    auth: adminAuth,
    upload: { contentType: SANDBOX_FILE_TYPE, description: `A ${FILE_FORMAT} file (JSON lines) as GET /api/v1/sandboxes/{group_id}/export wrote it` },
    query: importSandboxQuerySchema,
    response: importedSandboxSchema,
    status: 201,
    otherStatuses: { 202: 'Accepted: the new sandbox (status importing) with its keys, secrets and ids, and how far the writing is; it goes on after this answer' },
    noIdempotency: 'the answer carries new API keys and webhook secrets, which are shown once and never stored (a replay could not repeat them)',
    handler: async (c) => {
      const type = String(c.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== SANDBOX_FILE_TYPE) throw new AppError(415, 'invalid_request', `request body must be a sandbox file (Content-Type: ${SANDBOX_FILE_TYPE})`);
      // The announced size: a body over the cap is refused before a byte of it is read.
      const size = Number(c.headers['content-length'] ?? 0);
      const input = withParams(c.query, { file: uploadOf(c.upload!), ...(Number.isSafeInteger(size) ? { size } : {}) });
      const sandbox = await executeRaw(importSandbox, c.platform, c.ctx, input, answerBudget(c.platform, ENV.importAnswerMs));
      return sandbox.status === 'importing' ? new JsonResponse(202, sandbox) : sandbox;
    },
  },
];
