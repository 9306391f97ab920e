// The request journal's rules (docs/journal.md): what one call's entry keeps — its
// bodies redacted through the one list of sensitive fields (./sensitive.ts), refused
// when too deep or too large to keep, never lost — the bounds per group, and the
// shapes of `GET /api/v1/sandboxes/{group_id}/requests`.
import { z } from 'zod';
import { parseJson, stringifyJson } from '../lib/exact-json.js';
import { pageLimit } from './paging.js';
import { instantSchema } from './time.js';
import { timestamp, uuid } from './strings.js';
import { waitQuery } from './waiting.js';
import { jsonDepth, MAX_DEPTH, mayHoldSensitive, opensFewer, redact, redactText } from './sensitive.js';

/** Entries a group's journal keeps: the last this many calls. */
export const JOURNAL_MAX_ENTRIES = 1000;
/** Bytes (bodies, answers and paths) a group's journal keeps at most: the oldest calls go first. */
export const JOURNAL_MAX_BYTES = 8 * 1024 * 1024;
/** A body or an answer larger than this is not kept (the entry says so in `note`). */
export const JOURNAL_MAX_BODY_BYTES = 256 * 1024;

/** The facts of one call the pipeline hands over. */
export interface CallFacts {
  group_id: string;
  request_id: string;
  at: string;
  method: string;
  path: string;
  route: string;
  status: number;
  duration_ms: number;
  idempotency_key: string | null;
  fault: string | null;
  recordable: boolean;
  /** Idempotency-Key and Payctl-Simulate as sent (a replay needs them). */
  headers: Record<string, string>;
  /** The request body as the client sent it ('' without one). */
  raw: string;
  /** Keep no request body at all (a tokenize call: the card typed is never kept). */
  dropBody: boolean;
  /** The answer's body (undefined or null: none). */
  answer: unknown;
  /** The answer's JSON text as it was sent, when it was (saves writing it again). */
  answerText?: string;
}

interface Kept {
  text: string | null;
  note: string | null;
}

const kib = (n: number) => `${Math.ceil(n / 1024)} KiB`;

/** A JSON text as the journal keeps it: unchanged when nothing in it can be sensitive, else redacted; refused past the bounds. */
function keepText(what: string, text: string, ours: boolean): Kept {
  // The depth first (a count when it cannot be deep; the scan stops past MAX_DEPTH, whatever the text's size).
  // An answer is the server's own: its writing would have failed first.
  if (!ours && !opensFewer(text) && jsonDepth(text) > MAX_DEPTH) return { text: null, note: `${what} refused: nested deeper than ${MAX_DEPTH} levels` };
  if (text.length > JOURNAL_MAX_BODY_BYTES) return { text: null, note: `${what} of ${kib(text.length)} not kept (over the journal's ${kib(JOURNAL_MAX_BODY_BYTES)} a body)` };
  if (!mayHoldSensitive(text)) return { text, note: null };
  return { text: stringifyJson(redact(parseJson(text))), note: null };
}

/** The answer as kept: from the text that was sent when there is one (`sent`), else written here. */
function keepAnswer(answer: unknown, sent: string | undefined): Kept {
  if (answer === undefined || answer === null) return { text: null, note: null };
  let text = sent;
  if (text === undefined) {
    try {
      text = stringifyJson(answer);
    } catch {
      return { text: null, note: 'answer refused: it cannot be written as JSON (nested too deep)' };
    }
  }
  return keepText('answer', text, true);
}

/** The entry one call makes (../store/interfaces/journal.ts JournalEntry). */
export function journalEntry(c: CallFacts) {
  const body = c.raw === '' || c.dropBody ? { text: null, note: null } : keepText('request body', c.raw, false);
  const answer = keepAnswer(c.answer, c.answerText);
  const path = redactText(c.path);
  const headers = Object.keys(c.headers).length > 0 ? stringifyJson(redact(c.headers)) : null;
  const note = [body.note, answer.note].filter((n) => n !== null).join('; ') || null;
  return {
    group_id: c.group_id,
    request_id: c.request_id,
    at: c.at,
    method: c.method,
    path,
    route: c.route,
    status: c.status,
    duration_ms: c.duration_ms,
    idempotency_key: c.idempotency_key === null ? null : redactText(c.idempotency_key),
    fault: c.fault,
    recordable: c.recordable,
    headers,
    body: body.text,
    answer: answer.text,
    note,
    bytes: path.length + (headers?.length ?? 0) + (body.text?.length ?? 0) + (answer.text?.length ?? 0) + (note?.length ?? 0),
  };
}

// --- GET /api/v1/sandboxes/{group_id}/requests ------------------------------------

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The filters of a journal read (query text, or the dashboard's input). */
export const requestsQuerySchema = z.strictObject({
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(METHODS, { error: `must be one of ${METHODS.join(', ')}` }))
    .optional()
    .meta({ description: 'Only calls of this method' }),
  path: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(2048, { error: 'must be at most 2048 characters' })
    .optional()
    .meta({ description: 'Only calls of this path; ending in `*`, of paths starting with what comes before it (`/api/v1/groups/G/transaction*`)' }),
  status: z
    .string()
    .regex(/^[1-5](\d\d|xx)$/, { error: 'must be a status (200) or a class of them (4xx)' })
    .optional()
    .meta({ description: 'Only calls answered with this status (404) or class (4xx)' }),
  since: instantSchema().optional().meta({ description: 'Only calls that arrived at or after this instant (real time, RFC 3339)' }),
  limit: pageLimit.meta({ description: 'At most this many calls (1–1000, default 50)' }),
  starting_after: uuid.optional().meta({ description: 'A call id: answer the calls after it (the next page)' }),
  ...waitQuery,
});
export type RequestsQuery = z.infer<typeof requestsQuerySchema>;

/** A status filter as a range: 404 → [404, 404], 4xx → [400, 499]. */
export function statusRange(status: string): [number, number] {
  if (status.endsWith('xx')) {
    const base = Number(status[0]) * 100;
    return [base, base + 99];
  }
  return [Number(status), Number(status)];
}

export const journalItemSchema = z
  .object({
    id: uuid.describe('The call: the Request-Id its answer carried'),
    seq: z.number().int().describe("The call's number in its group's journal (1, 2, …)"),
    at: timestamp.describe('When it arrived (real time)'),
    method: z.string(),
    path: z.string(),
    route: z.string().describe("The route's template (/api/v1/groups/:group_id/transaction)"),
    status: z.number().int(),
    duration_ms: z.number(),
    idempotency_key: z.string().nullable(),
    fault: z.string().nullable().describe('The fault drawn, as the Payctl-Fault header said it'),
    body: z.unknown().describe('The request body, sensitive fields masked (null without one, or when not kept: note)'),
    answer: z.unknown().describe('The answer body, sensitive fields masked'),
    note: z.string().nullable().describe('Why a body or answer was not kept (too deep, too large)'),
  })
  .meta({ id: 'JournalEntry' });
export type JournalItem = z.infer<typeof journalItemSchema>;

export const journalPageSchema = z
  .object({
    data: z.object({
      items: z.array(journalItemSchema),
      has_more: z.boolean(),
      dropped: z.number().int().describe(`Calls of this group the journal no longer holds (it keeps the last ${JOURNAL_MAX_ENTRIES}, at most ${JOURNAL_MAX_BYTES / 1024 / 1024} MiB)`),
    }),
  })
  .meta({ id: 'JournalPage' });
export type JournalPage = z.infer<typeof journalPageSchema>;
