// Sandboxes: groups made for one test suite (or one test), with their own keys, data
// and clock. The request shapes of the sandbox extension routes, and their answers.
import { z } from 'zod';
import { requiredText, timestamp } from './strings.js';
import { instantSchema, MAX_CLOCK_MOVE_YEARS, parseDuration } from './time.js';
import { ttlSchema } from './sandbox-ttl.js';
import { CLOCK_MODES, clockModeSchema, clockRateSchema, rateProblem, type ClockMode } from './clock-modes.js';

/** RFC 3339 or a date (midnight UTC), years 1970–9999: src/domain/time.ts. */
const instant = instantSchema({ date: true });

const duration = z.string().max(40, { error: 'must be at most 40 characters' }).refine(
  (v) => {
    try {
      parseDuration(v);
      return true;
    } catch {
      return false;
    }
  },
  { error: 'must be a duration: 30d, 12h, 90m, 45s, 2w or combinations like 1d12h' },
);

export const createSandboxSchema = z.strictObject({
  name: requiredText(100).optional().describe('Defaults to "Sandbox"'),
  demo: z.boolean({ error: 'must be true or false' }).optional().describe('Add the demo data of `payctl init --demo`'),
  clock: z
    .union([instant, z.lazy(() => sandboxClockSchema)])
    .optional()
    .describe("The sandbox's start time (a running clock from there), or its clock: {time, mode, rate}; default: the platform's time, running"),
  webhooks: z
    .enum(['collect'], { error: 'must be "collect" (keep the sandbox\'s webhooks in its inbox)' })
    .optional()
    .describe('"collect": the sandbox gets a collect endpoint for every event type — each webhook kept, signed, in GET /api/v1/sandboxes/{group_id}/inbox — and the answer carries its signing secret as webhook_secret'),
  ttl: ttlSchema.optional(),
}).meta({ id: 'CreateSandboxRequest' });
export type CreateSandbox = z.output<typeof createSandboxSchema>;

/** A new sandbox's clock (docs/clock.md "Clock modes"): where it starts, its mode (default running) and, accelerated, its rate. */
export const sandboxClockSchema = z
  .strictObject({
    time: instant.optional().describe("The sandbox's start time; default: the platform's time"),
    mode: clockModeSchema.optional().describe('Default running'),
    rate: clockRateSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const p = rateProblem(v.mode, v.rate);
    if (p) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message, continue: true });
  })
  .meta({ id: 'SandboxClock' });

/** The clock a create request asks for, whichever form it took (a string is a start time, running). */
export function requestedClock(clock: CreateSandbox['clock']): { time?: string; mode: ClockMode; rate?: number } {
  if (clock === undefined) return { mode: 'running' };
  if (typeof clock === 'string') return { time: clock, mode: 'running' };
  return { time: clock.time, mode: (clock.mode ?? 'running') as ClockMode, rate: clock.rate };
}

export const forkSandboxSchema = z.strictObject({
  name: requiredText(100).optional().describe('Defaults to the original name with " (fork)"'),
}).meta({ id: 'ForkSandboxRequest' });

const moveClockFields = {
  advance: duration.optional().describe(`Move forward by a duration: 30d, 12h, 1d12h; at most ${MAX_CLOCK_MOVE_YEARS} years per request`),
  set: instant.optional().describe(`Move to a time: never earlier than the group clock now, at most ${MAX_CLOCK_MOVE_YEARS} years later`),
  mode: clockModeSchema.optional().describe(`Change the clock's mode (${CLOCK_MODES.join(', ')}) at its time now, or at the time advance or set move it to`),
  rate: clockRateSchema.optional(),
};

const exactlyOne = (v: { advance?: string; set?: string; mode?: string; rate?: number }, ctx: z.RefinementCtx) => {
  if (v.advance !== undefined && v.set !== undefined) ctx.addIssue({ code: 'custom', path: ['set'], message: 'give one of advance or set, not both' });
  else if (v.advance === undefined && v.set === undefined && v.mode === undefined) {
    ctx.addIssue({ code: 'custom', path: ['advance'], message: 'give exactly one of advance or set (or a mode)' });
  }
  const p = rateProblem(v.mode, v.rate);
  if (p) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
};

export const moveClockSchema = z
  .strictObject(moveClockFields)
  .superRefine(exactlyOne)
  .meta({ id: 'MoveClockRequest', description: 'One of advance or set, and/or a mode (with rate when accelerated).' });
/** The move of one group's clock: the request's fields and the group it names. */
export const moveGroupClockInput = z.strictObject({ ...moveClockFields, group_id: z.string() }).superRefine(exactlyOne);
export type MoveClock = z.output<typeof moveClockSchema>;

export const catchUpSchema = z.object({
  status: z
    .enum(['running', 'pending', 'caught_up'])
    .describe("running: the server is doing the group's due work now; pending: work is due and the server's tick will do it (e.g. after a restart); caught_up: nothing is due"),
  job: z.string().nullable().describe('The job running now (subscription-billing, settlement, invoice-past-due, idempotency-purge, webhook-deliveries); null unless running'),
  subscriptions_due: z.number().int().describe('Active subscriptions with a charge due at the group\'s time'),
  charges_due: z.number().int().describe("Charge attempts still due (estimated: a declined charge's retries come on top)"),
  transactions_to_settle: z.number().int().describe('Transactions waiting for a settlement cutoff that has passed (counted up to 1,000)'),
}).meta({ id: 'CatchUp', description: "How far the group's due work is (read from the database: it survives a restart)" });

/** What every answer showing a group's clock adds: its mode, and its rate when accelerated. */
const clockModeFields = {
  mode: z.enum(CLOCK_MODES).describe('running: real time plus an offset; frozen: stands still until moved; accelerated: `rate` times real time'),
  rate: z.number().int().optional().describe('Accelerated only: sandbox seconds per real second'),
};
/** The same on a sandbox's answers (beside its `clock`). */
const sandboxClockFields = {
  clock_mode: clockModeFields.mode,
  clock_rate: clockModeFields.rate,
};

export const groupClockSchema = z.object({
  group_id: z.string(),
  now: timestamp.describe("The group's time: running, the platform clock plus the group's offset; frozen, the instant it stands at"),
  offset_ms: z.number().int().describe("The group's own offset from the platform clock (0 unless running)"),
  ...clockModeFields,
  work: z.record(z.string(), z.number().int()).optional().describe('Due work done by this move so far, per job'),
  catch_up: catchUpSchema.optional(),
}).meta({ id: 'GroupClock' });

/** active: usable; forking: a fork still copying its rows; importing: an import still writing its rows (their keys are refused with 409 until it is active). */
export const sandboxStatusSchema = z.enum(['active', 'forking', 'importing']);
export type SandboxStatus = z.output<typeof sandboxStatusSchema>;

export const forkProgressSchema = z
  .object({
    source_id: z.string().describe('The sandbox being copied'),
    phase: z
      .enum(['mapping', 'copying', 'finishing'])
      .describe('mapping: giving each row of the source a new id; copying: copying the rows, parents first; finishing: counting the copy into the reports'),
    table: z.string().nullable().describe('The table the phase is at'),
    ids_mapped: z.number().int().describe('Rows of the source given a new id so far'),
    rows_copied: z.number().int().describe('Rows copied so far'),
    rows_total: z.number().int().describe("Rows the copy will hold (the source's rows now: it may still change)"),
  })
  .meta({ id: 'ForkProgress', description: 'How far a fork is (read from the database: it survives a restart, and the server goes on with it)' });
export type ForkProgressState = z.output<typeof forkProgressSchema>;

export const sandboxSchema = z
  .object({
    group_id: z.string(),
    name: z.string(),
    status: sandboxStatusSchema.optional(),
    processor_id: z.string(),
    linked_account_id: z.string(),
    keys: z.record(z.string(), z.string()).describe('One API key per permission kind (shown once)'),
    clock: timestamp.describe("The sandbox's time now"),
    ...sandboxClockFields,
    created_at: timestamp,
    customer_id: z.string().optional(),
    forked_from: z.string().optional(),
    webhook_secret: z.string().optional().describe('With webhooks "collect" (or a fork of a sandbox that collects): the signing secret of its collect endpoint, `whsec_…`, shown here only'),
    webhook_endpoint_id: z.string().optional().describe('That collect endpoint'),
  })
  .catchall(z.unknown())
  .meta({ id: 'Sandbox', description: 'The shape `payctl init --demo --json` prints: ids, keys, and with demo the ids of the demo objects' });

/** A fork answered before its copy was whole (202): the new sandbox's id and keys, and how far the copy is. */
export const forkingSandboxSchema = z
  .object({
    group_id: z.string(),
    name: z.string(),
    status: z.literal('forking'),
    keys: z.record(z.string(), z.string()).describe('One API key per permission kind (shown once): refused with 409 until GET /api/v1/sandboxes/{group_id} shows status active'),
    clock: timestamp.describe("The sandbox's time now"),
    ...sandboxClockFields,
    created_at: timestamp,
    forked_from: z.string(),
    webhook_secret: z.string().optional().describe("When the source collects its webhooks: the signing secret of the fork's own collect endpoint, shown here only"),
    webhook_endpoint_id: z.string().optional(),
    fork: forkProgressSchema,
  })
  .meta({ id: 'ForkingSandbox', description: 'A fork still copying: the copy goes on in the server (and after a restart); poll GET /api/v1/sandboxes/{group_id}' });
export type ForkingSandbox = z.output<typeof forkingSandboxSchema>;

export const importProgressSchema = z
  .object({
    source_id: z.string().describe('The sandbox the file was exported from (its group id there)'),
    table: z.string().nullable().describe('The table being written'),
    rows_imported: z.number().int().describe('Rows written so far'),
    rows_total: z.number().int().describe('Rows the file holds'),
  })
  .meta({ id: 'ImportProgress', description: 'How far an import is (read from the database)' });
export type ImportProgressState = z.output<typeof importProgressSchema>;

/** What an import answers: the new sandbox (keys shown once), where it came from, and the new ids. */
export const importedSandboxSchema = z
  .object({
    group_id: z.string(),
    name: z.string(),
    status: z.enum(['active', 'importing']),
    processor_id: z.string(),
    linked_account_id: z.string(),
    keys: z.record(z.string(), z.string()).describe('One API key per permission kind (shown once); refused with 409 while status is importing'),
    webhook_secrets: z.record(z.string(), z.string()).describe("Each webhook endpoint's new signing secret (shown once), by its new id: secrets are never exported"),
    clock: timestamp.describe("The sandbox's time now: the exported sandbox's time when it was exported"),
    ...sandboxClockFields,
    created_at: timestamp,
    imported_from: z.object({ group_id: z.string(), name: z.string(), exported_at: timestamp, schema_version: z.number().int() }),
    id_map: z.record(z.string(), z.string()).describe('Old → new id of every row of the file that has one (new ids: an import can sit beside its source)'),
    rows: z.record(z.string(), z.number().int()).describe('Rows imported per table'),
    import: importProgressSchema.optional().describe('While status is importing (a 202)'),
  })
  .meta({ id: 'ImportedSandbox', description: 'A sandbox made from an export file' });
export type ImportedSandbox = z.output<typeof importedSandboxSchema>;

export const importSandboxQuerySchema = z.strictObject({
  name: requiredText(100).optional().describe("The new sandbox's name (default: the exported sandbox's)"),
  ttl: ttlSchema.optional(),
});

/** A byte stream (an upload as it arrives, a file, standard input). */
const byteStream = z.custom<AsyncIterable<Buffer | string>>((v) => typeof (v as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function', 'must be the file as a stream of bytes');

/** An import: the query's fields, the file, and the size it was announced with when one was (an upload's Content-Length). */
export const importSandboxInput = importSandboxQuerySchema.extend({ file: byteStream, size: z.number().int().nonnegative().optional() });

export const sandboxSummarySchema = z.object({
  group_id: z.string(),
  name: z.string(),
  status: sandboxStatusSchema,
  clock: timestamp,
  ...sandboxClockFields,
  offset_ms: z.number().int(),
  created_at: timestamp,
  fork: forkProgressSchema.optional().describe('While status is forking'),
  import: importProgressSchema.optional().describe('While status is importing'),
  ttl_seconds: z.number().int().optional().describe('Its time to live, if it was made with one: dropped after this long without a request (real time)'),
  expires_at: timestamp.optional().describe('When the server drops it if no request comes (real time; the last request is written by the tick, so this is exact to about a tick)'),
}).meta({ id: 'SandboxSummary' });
export const sandboxListSchema = z.object({ data: z.array(sandboxSummarySchema) }).meta({ id: 'SandboxList' });
export type SandboxSummary = z.output<typeof sandboxSummarySchema>;

export const deletedSandboxSchema = z.object({
  group_id: z.string(),
  deleted: z.literal(true),
  rows: z.record(z.string(), z.number().int()).describe('Rows removed per table'),
}).meta({ id: 'DeletedSandbox' });
