// Guards the review keeps finding slipped. A route reads its path parameters typed by its
// path (RouteContext<PathParams<Path>>), so a non-null assertion on one hides a route
// whose path lacks the parameter. Services take typed use-case input: the few that still
// take a raw `body: unknown` are listed here, so a new one is a decision, not a slip.
// Services hand entities to the store and get entities back (docs/architecture.md): JSON
// text in a service is wire work only (a webhook's body, a file's lines), listed here.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { typescriptFiles } from './sources.js';

const PARAM_ASSERTION = /\bparams(\.\w+|\[[^\]]+\])!/;
const RAW_BODY = /\bbody: unknown\b/;

/** Raw bodies services still take: the unit of work's answer, the idempotency record's, onboarding's signup entry (checked field by field against its form). */
const RAW_BODIES = [
  'src/services/idempotency.ts: body: unknown;',
  'src/services/onboarding/onboarding.ts: async function formProblems(ex: Executor, body: unknown): Promise<FieldProblem[]> {',
  'src/services/onboarding/onboarding.ts: async function submit(p: Platform, ctx: RequestContext, body: unknown): Promise<SubmitOutcome> {',
  'src/services/onboarding/onboarding.ts: export async function validateSignupEntry(p: Platform, body: unknown): Promise<{ entry?: SignupEntry; problems: FieldProblem[] }> {',
  'src/services/unit-of-work.ts: answer(status: number, body: unknown): void;',
  'src/services/unit-of-work.ts: let answer: { status: number; body: unknown } | undefined;',
];

/** JSON text made or read: JSON.parse/stringify, and the exact-integer wrappers of src/lib/exact-json.ts (parseJson, stringifyJson). */
const JSON_TEXT = /\b(JSON\.(parse|stringify)|parseJson|stringifyJson)\b/;

/**
 * JSON text services still write or read themselves: on the wire or in a file (a webhook's
 * body, an export's lines, an event stream's events, serialised once per feed for all its
 * connections), and a long poll's key.
 */
const JSON_IN_SERVICES = [
  'src/services/events/stream.ts: const entry = (row: SequencedEvent): Entry => ({ seq: row.seq, type: row.type, json: stringifyJson(toEvent(row)) });',
  'src/services/long-poll.ts: const key = JSON.stringify(o.share.key);',
  "src/services/sandboxes/import.ts: const { table, row } = JSON.parse(text.slice(tab + 1)) as { table: string; row: Row };",
  'src/services/sandboxes/import.ts: else pending += `${checker.lines}\\t${kept.verbatim ? text : JSON.stringify({ table: kept.table, row: kept.row })}\\n`;',
  "src/services/webhooks/event-body.ts: const head = JSON.stringify({ id: r.event_id, type: r.type, created_at: r.created_at, group_id: r.group_id }).slice(0, -1);",
  "src/services/webhooks/event-body.ts: const request = r.request_id === null ? 'null' : JSON.stringify({ id: r.request_id, idempotency_key: r.idempotency_key });",
];

/** The lines of `dir`'s files that make or read JSON text, import declarations aside (a wrapper imported is not yet used). */
const jsonLines = (dir: string): string[] =>
  [...typescriptFiles(dir)].flatMap((f) => {
    const text = readFileSync(path.join(packageRoot, f), 'utf8').replace(/^import\b[^;]*;/gm, (m) => m.replace(/[^\n]/g, ''));
    return text.split('\n').filter((l) => JSON_TEXT.test(l)).map((l) => `${f}: ${l.trim()}`);
  });

const matching = (dirs: string[], pattern: RegExp): string[] =>
  dirs.flatMap((dir) => [...typescriptFiles(dir)].flatMap((f) => readFileSync(path.join(packageRoot, f), 'utf8').split('\n').filter((l) => pattern.test(l)).map((l) => `${f}: ${l.trim()}`)));

test('no non-null assertion on a path parameter', () => {
  assert.deepEqual(matching(['src', 'commands'], PARAM_ASSERTION), []);
});

test('services take `body: unknown` only where listed', () => {
  assert.deepEqual(matching(['src/services'], RAW_BODY).sort(), [...RAW_BODIES].sort());
});

test('services write JSON text only where listed (at most 7: the wire)', () => {
  const found = jsonLines('src/services').sort();
  assert.deepEqual(found, [...JSON_IN_SERVICES].sort());
  assert.ok(found.length <= 7);
});

test('the patterns find what they are for', () => {
  assert.match('const x = JSON.parse(text)', JSON_TEXT);
  assert.match('body: e.body === null ? null : parseJson(e.body),', JSON_TEXT);
  assert.match('yield stringifyJson(summary);', JSON_TEXT);
  assert.doesNotMatch('const parsedJson = text;', JSON_TEXT);
  assert.match('faultGroupOf: (c) => find(c.params.payment_link_id!)', PARAM_ASSERTION);
  assert.match("c.params['group_id']!", PARAM_ASSERTION);
  assert.doesNotMatch('c.params.payment_link_id !== undefined', PARAM_ASSERTION);
  assert.match('export function withParams(body: unknown, params: Record<string, string>)', RAW_BODY);
});
