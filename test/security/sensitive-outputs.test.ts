// Private by default (docs/journal.md "What is never kept"): every field the spec and the
// API mark sensitive — onboarding's business.ein and business.ssn, a representative's
// ssn and itin, the tokenizer's card number and CVV, a bank account number — walked
// through one recorded sandbox's calls, then looked for in every output: the request
// journal, the recording, the scenario file made of it, the sandbox's export, the
// event log, the stored signup entries, the access log and `payctl logs tail`'s lines.
// API keys, webhook secrets and the admin token likewise; routing numbers keep their
// last four wherever the journal's masking applies (the API answers them by design).
import '../helpers/env.js';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, noonToday, type SandboxReply } from '../helpers/sandboxes.js';
import { cardTokenBody, saleBody } from '../helpers/bodies.js';
import { packageRoot } from '../../src/lib/paths.js';
import { formatEntry } from '../../src/dev/log-tail.js';

type AccessEntry = Parameters<typeof formatEntry>[0];

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const load = (name: string): Json => JSON.parse(readFileSync(path.join(packageRoot, 'data', 'examples', name), 'utf8'));

const CARD = '4111111111111111';
const CVV = '917';
const BANK_ACCOUNT = '000123456789';
const ROUTING = '110000000';
/** Every spelling of a sensitive value sent below that must never show in full. */
const NEVER = [
  '12-3456789', // business.ein
  '123-45-6789', // a representative's ssn
  '123456789',
  '912-70-1234', // a representative's itin
  '912701234',
  '987-65-4321', // a sole proprietor's business.ssn and representative ssn
  '987654321',
  CARD,
  '4111 1111 1111 1111',
  BANK_ACCOUNT,
  ADMIN,
];
const NEVER_PATTERNS = [/sk_test_[A-Za-z0-9]/, /whsec_[A-Za-z0-9]/, new RegExp(`["']${CVV}["']|cvv: ${CVV}\\b`)];

function assertMasked(text: string, where: string, opts: { routing?: boolean } = {}): void {
  for (const v of NEVER) assert.ok(!text.includes(v), `${where} holds ${v}`);
  for (const re of NEVER_PATTERNS) assert.doesNotMatch(text, re, `${where} holds ${re}`);
  if (opts.routing) assert.ok(!text.includes(ROUTING), `${where} holds the routing number ${ROUTING}`);
}

let s: TestServer;
let sb: SandboxReply;
const dir = mkdtempSync(path.join(tmpdir(), 'payctl-sensitive-'));
const accessLog = path.join(dir, 'access.log');

before(async () => {
  s = await startTestServer({ adminToken: ADMIN, accessLog });
  sb = await newSandbox(s, { clock: noonToday() });
  const named = { 'Payctl-Sandbox': sb.group_id };
  const rec = `/api/v1/sandboxes/${sb.group_id}/recording`;
  assert.equal((await s.call('POST', rec, { key: ADMIN })).status, 201);

  // Onboarding: both examples (an EIN with a representative's SSN and ITIN; a sole proprietor's SSN).
  for (const file of ['signup-entry.json', 'signup-entry-sole-prop.json']) {
    const body = load(file);
    body.signup_form_id = s.demo.signup_form_id;
    const r = await s.call('POST', '/api/v1/processing/signup_entry', { body, headers: named });
    assert.equal(r.status, 201, r.text);
  }
  // A card and a bank account tokenized, a sale with each token.
  const card = await s.call('POST', '/api/v1/tokens', { body: cardTokenBody(CARD, CVV), headers: named });
  assert.equal(card.status, 200, card.text);
  const bank = await s.call('POST', '/api/v1/tokens', {
    body: { bank_account: { routing_number: ROUTING, account_number: BANK_ACCOUNT, account_type: 'checking', holder_name: 'Test Holder' } },
    headers: named,
  });
  assert.equal(bank.status, 200, bank.text);
  for (const token of [card.body.token, bank.body.token]) {
    const sale = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions!, body: saleBody(sb.processor_id, { token }) });
    assert.equal(sale.status, 200, sale.text);
  }
  // A webhook endpoint (its secret is in the answer); a card number in a path and in an Idempotency-Key (the logs).
  const hook = await s.call('POST', `/api/v1/groups/${sb.group_id}/webhook_endpoints`, { key: sb.keys.manage_webhooks!, body: { url: 'http://127.0.0.1:9/hooks', enabled_events: ['*'] } });
  assert.match(hook.body.secret, /^whsec_/, hook.text);
  assert.equal((await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${CARD}`, { key: sb.keys.view_transactions! })).status, 404);
  const keyed = await s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions!, body: saleBody(sb.processor_id), headers: { 'Idempotency-Key': `order-${CARD}` } });
  assert.equal(keyed.status, 200, keyed.text);
  assert.equal((await s.call('DELETE', rec, { key: ADMIN })).status, 200);
});
after(() => s.close());

test('the request journal keeps every call, each sensitive field masked', async () => {
  const r = await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/requests?limit=1000`, { key: ADMIN });
  assert.equal(r.status, 200);
  assertMasked(r.text, 'the journal', { routing: true });
  const onboarding = r.body.data.items.filter((i: Json) => i.route === '/api/v1/processing/signup_entry');
  assert.equal(onboarding.length, 2);
  assert.equal(onboarding[0].body.business.ein, '•••••6789', 'a tax id keeps its last four, as the store keeps it');
  assert.equal(onboarding[0].body.business.representatives[1].itin, '•••••1234');
  assert.equal(onboarding[1].body.business.ssn, '•••••4321');
});

test('the recording and the scenario file made of it', async () => {
  const json = await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/recording`, { key: ADMIN });
  assert.equal(json.status, 200);
  assert.ok(json.body.calls >= 8, json.text);
  assertMasked(json.text, 'the recording', { routing: true });
  const yaml = await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/recording?format=scenario`, { key: ADMIN });
  assert.equal(yaml.status, 200);
  assert.match(yaml.text, /signup_entry/);
  assertMasked(yaml.text, 'the scenario file', { routing: true });
});

test("the sandbox's export and its events", async () => {
  const file = await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/export`, { key: ADMIN });
  assert.equal(file.status, 200);
  assertMasked(file.text, 'the export');
  const events = await s.call('GET', `/api/v1/groups/${sb.group_id}/events?limit=1000`, { key: sb.keys.manage_webhooks! });
  assert.equal(events.status, 200, events.text);
  assert.ok(events.body.data.items.length > 0);
  assertMasked(events.text, 'the events');
  const stored = await s.p.db.all<{ data: string }>('SELECT data FROM events');
  assertMasked(stored.map((e) => e.data).join('\n'), 'the event log (every group)');
});

test('the stored signup entries', async () => {
  const rows = await s.p.db.all<Record<string, unknown>>('SELECT * FROM signup_entries');
  assert.ok(rows.length >= 2);
  assertMasked(JSON.stringify(rows), 'signup_entries');
});

test('the access log and `payctl logs tail` lines', async () => {
  await s.call('GET', '/health');
  const text = readFileSync(accessLog, 'utf8');
  assert.match(text, /\[redacted\]/, 'the card number in a path is taken out');
  assertMasked(text, 'the access log');
  const lines = text.trim().split('\n').map((l) => formatEntry(JSON.parse(l) as AccessEntry));
  assertMasked(lines.join('\n'), 'payctl logs tail');
});
