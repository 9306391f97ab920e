import '../helpers/env.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { deadSmtpUrl, header, startTestSmtp, textBody, type SmtpMode, type TestSmtp } from '../helpers/smtp.js';
import { signupEntryResultSchema } from '../../src/domain/onboarding/response.js';
import { getSignupEntry } from '../../src/services/onboarding/onboarding.js';
import { getOutbox } from '../../src/services/mail/outbox.js';
import { contextFor } from '../../src/services/context.js';
import { execute } from '../../src/services/use-case.js';
import { groupRepo } from '../../src/store/sql/repositories/groups.js';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { openPlatform } from '../../src/services/platform.js';
import { startServer } from '../../src/http/app.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}
const load = (name: string): Json => JSON.parse(readFileSync(join(repoRoot(), 'data', 'examples', name), 'utf8'));

const PATH = '/api/v1/processing/signup_entry';
const RESULT_KEYS = [
  'business_name',
  'confirmation_email_id',
  'created_at',
  'email_delivery',
  'external_id',
  'group_id',
  'id',
  'signup_form_id',
  'status',
].sort();
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every spelling of the examples' sensitive numbers that must never leave the service in full. */
const SENSITIVE = ['12-3456789', '123456789', '123-45-6789', '912-70-1234', '912701234', '987-65-4321', '987654321'];
const assertNoSensitive = (text: string, where: string) => {
  for (const s of SENSITIVE) assert.ok(!text.includes(s), `${where} contains ${s}`);
};

const withForm = (name: string, formId: string) => {
  const e = load(name);
  e.signup_form_id = formId;
  return e;
};

const countRows = async (s: TestServer, table: 'groups' | 'signup_entries' | 'outbox') =>
  (await s.p.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;

describe('POST /api/v1/processing/signup_entry (no SMTP configured)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ env: {} });
  });
  after(() => s.close());

  const examples = [
    { file: 'signup-entry.json', externalId: 'crm-000417', ein: '•••••6789', people: [['ssn', '•••••6789'], ['itin', '•••••1234']] },
    { file: 'signup-entry-sole-prop.json', externalId: null, ein: undefined, people: [['ssn', '•••••4321']] },
  ] as const;

  for (const ex of examples) {
    it(`201 with the documented shape, a pending_review account and a masked entry: ${ex.file}`, async () => {
      const body = withForm(ex.file, s.demo.signup_form_id as string);
      const r = await s.call('POST', PATH, { body });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), RESULT_KEYS);
      signupEntryResultSchema.parse(r.body);
      assert.equal(r.body.status, 'pending_review');
      assert.equal(r.body.external_id, ex.externalId);
      assert.equal(r.body.signup_form_id, s.demo.signup_form_id);
      assert.equal(r.body.business_name, body.business.business_name);
      assert.match(r.body.created_at, ISO_MS);
      assert.equal(r.body.email_delivery, 'stored');
      assertNoSensitive(r.text, 'the response');

      // The business account: a new group in pending_review.
      const group = await groupRepo.find(s.p.db, r.body.group_id);
      assert.ok(group);
      assert.equal(group.status, 'pending_review');
      assert.equal(group.name, body.business.business_name);
      assert.notEqual(group.id, s.demo.group_id);

      // The stored entry: ssn/itin/ein only as their last four.
      const stored = await getSignupEntry(s.p, r.body.id);
      assert.ok(stored);
      assert.equal(stored.group_id, r.body.group_id);
      assertNoSensitive(JSON.stringify(stored.entry), 'the stored entry');
      assert.equal(stored.entry.business.ein, ex.ein);
      ex.people.forEach(([field, masked], i) => assert.equal((stored.entry.business.representatives[i] as Json)[field], masked));

      // The confirmation e-mail in the outbox, to business.email, without the numbers.
      const mail = await execute(getOutbox, s.p, contextFor(s.p, undefined), { email_id: r.body.confirmation_email_id });
      assert.ok(mail);
      assert.equal(mail.kind, 'onboarding');
      assert.equal(mail.to, body.business.email);
      assert.equal(mail.related_id, r.body.id);
      assert.equal(mail.status, 'stored');
      assert.ok(mail.body.includes(r.body.id));
      assert.ok(mail.subject.includes(body.business.business_name));
      assertNoSensitive(mail.subject + mail.body, 'the e-mail');
    });
  }

  it('400 lists several violated rules at once, each with its path, and creates nothing', async () => {
    const body = withForm('signup-entry.json', 'form_unknown');
    delete body.business.ein;
    body.external_id = 'x'.repeat(37);
    body.business.phone.country_code = '44';
    body.business.representatives[0].title = 'dr';
    body.business.representatives[1].birth_date = { year: 1990, month: 2, day: 30 };
    body.business.underwriting.acceptance_methods.online = 25; // 60 + 25 + 5 = 90
    delete body.business.underwriting.fulfillment_method; // card accepted, in_person 60 < 80
    body.business.underwriting.geographich_reach = 'mars-only';
    const before = await Promise.all([countRows(s, 'groups'), countRows(s, 'signup_entries'), countRows(s, 'outbox')]);
    const r = await s.call('POST', PATH, { body });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.type, 'validation_error');
    const paths = new Set(r.body.error.fields.map((f: { path: string }) => f.path));
    for (const path of [
      'signup_form_id',
      'external_id',
      'business.ein',
      'business.phone.country_code',
      'business.representatives.0.title',
      'business.representatives.1.birth_date',
      'business.underwriting.acceptance_methods',
      'business.underwriting.fulfillment_method',
      'business.underwriting.geographich_reach',
    ]) {
      assert.ok(paths.has(path), `missing ${path} in ${[...paths].join(', ')}`);
    }
    for (const f of r.body.error.fields) assert.ok(f.message.length > 0);
    assertNoSensitive(r.text, 'the 400');
    const afterCounts = await Promise.all([countRows(s, 'groups'), countRows(s, 'signup_entries'), countRows(s, 'outbox')]);
    assert.deepEqual(afterCounts, before);
  });

  it('400 naming signup_form_id when an otherwise valid entry names an unknown form', async () => {
    const r = await s.call('POST', PATH, { body: withForm('signup-entry-sole-prop.json', 'form_2f6c1a9e') });
    assert.equal(r.status, 400);
    assert.deepEqual(
      r.body.error.fields.map((f: { path: string }) => f.path),
      ['signup_form_id'],
    );
    assert.match(r.body.error.fields[0].message, /not a signup form/);
  });

  it('legacy fields sent with underwriting are accepted and not stored', async () => {
    const body = withForm('signup-entry.json', s.demo.signup_form_id as string);
    Object.assign(body.business, { average_monthly_transaction_volume: '25000', max_transaction_size: 60000, average_transaction_size: 1850 });
    const r = await s.call('POST', PATH, { body });
    assert.equal(r.status, 201, r.text);
    const stored = await getSignupEntry(s.p, r.body.id);
    assert.equal((stored!.entry.business as Json).max_transaction_size, undefined);
    assert.equal((stored!.entry.business as Json).average_monthly_transaction_volume, undefined);
  });

  it('no API key is needed, and an Idempotency-Key replay returns the same entry without a second one', async () => {
    const body = withForm('signup-entry-sole-prop.json', s.demo.signup_form_id as string);
    const entries = await countRows(s, 'signup_entries');
    const first = await s.call('POST', PATH, { body, headers: { 'idempotency-key': 'onboard-1' } });
    const again = await s.call('POST', PATH, { body, headers: { 'idempotency-key': 'onboard-1' } });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(await countRows(s, 'signup_entries'), entries + 1);
  });
});

describe('the confirmation e-mail over a real SMTP server: 201 when delivered, 202 when not', () => {
  const servers: { smtp?: TestSmtp; s: TestServer }[] = [];
  after(async () => {
    for (const x of servers) {
      await x.s.close();
      await x.smtp?.close();
    }
  });
  async function setUp(mode: SmtpMode | 'nobody-listening') {
    const smtp = mode === 'nobody-listening' ? undefined : await startTestSmtp(mode);
    const url = smtp?.url ?? (await deadSmtpUrl());
    const s = await startTestServer({ env: { PAYCTL_SMTP_URL: url, PAYCTL_MAIL_FROM: 'payctl <onboarding@payctl.test>' } });
    servers.push({ s, ...(smtp ? { smtp } : {}) });
    return { s, smtp };
  }

  it('an accepting server: 201, email_delivery sent, the message arrived at business.email', async () => {
    const { s, smtp } = await setUp('accept');
    const body = withForm('signup-entry.json', s.demo.signup_form_id as string);
    const r = await s.call('POST', PATH, { body });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.email_delivery, 'sent');
    assert.equal(smtp!.received.length, 1);
    const msg = smtp!.received[0]!;
    assert.deepEqual(msg.to, ['owner@cafe-facade.example']);
    assert.equal(msg.from, 'onboarding@payctl.test');
    assert.equal(header(msg.raw, 'Subject'), 'We received the application of Café Façade & Sons, L.L.C.');
    const text = textBody(msg.raw);
    assert.ok(text.includes(r.body.id), text);
    assert.ok(text.includes('Renée Zoë Dubois-Núñez'), text);
    assertNoSensitive(msg.raw, 'the SMTP message');
    assertNoSensitive(text, 'the SMTP message body');
    const mail = await execute(getOutbox, s.p, contextFor(s.p, undefined), { email_id: r.body.confirmation_email_id });
    assert.equal(mail!.status, 'sent');
    assert.ok(mail!.sent_at);
  });

  for (const mode of ['refuse-recipient', 'refuse-data', 'nobody-listening'] as const) {
    it(`${mode}: 202, email_delivery failed, and the entry and its account still exist`, async () => {
      const { s, smtp } = await setUp(mode);
      const body = withForm('signup-entry-sole-prop.json', s.demo.signup_form_id as string);
      const r = await s.call('POST', PATH, { body });
      assert.equal(r.status, 202, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), RESULT_KEYS);
      assert.equal(r.body.email_delivery, 'failed');
      assert.equal(r.body.status, 'pending_review');
      assertNoSensitive(r.text, 'the 202');
      if (smtp) assert.equal(smtp.received.length, 0);
      const stored = await getSignupEntry(s.p, r.body.id);
      assert.ok(stored, 'the entry exists');
      assert.equal((await groupRepo.find(s.p.db, r.body.group_id))?.status, 'pending_review');
      const mail = await execute(getOutbox, s.p, contextFor(s.p, undefined), { email_id: r.body.confirmation_email_id });
      assert.equal(mail!.status, 'failed');
      assert.ok(mail!.error && mail!.error.length > 0);
    });
  }

  // A replay answers exactly what the first request answered: its status and body, after delivery.
  for (const [mode, status, delivery] of [
    ['accept', 201, 'sent'],
    ['refuse-data', 202, 'failed'],
  ] as const) {
    it(`an Idempotency-Key replay after ${mode}: ${status} with email_delivery ${delivery}, as first answered`, async () => {
      const { s, smtp } = await setUp(mode);
      const body = withForm('signup-entry-sole-prop.json', s.demo.signup_form_id as string);
      const headers = { 'idempotency-key': `onboard-${mode}` };
      const first = await s.call('POST', PATH, { body, headers });
      const again = await s.call('POST', PATH, { body, headers });
      assert.equal(first.status, status, first.text);
      assert.equal(first.body.email_delivery, delivery);
      assert.equal(again.status, status, again.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.text, first.text);
      assert.equal(smtp!.received.length, mode === 'accept' ? 1 : 0, 'the replay sent no second e-mail');
    });
  }

  it('a replay on another server while the e-mail is still going gets 409, then the 202 first answered', async () => {
    // An SMTP server that says nothing until told to hang up: the first request waits
    // between its commit and its answer for as long as the test needs.
    const sockets: Socket[] = [];
    let connected!: () => void;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const silent = createServer((sock) => {
      sockets.push(sock);
      sock.on('error', () => {});
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const env = { PAYCTL_SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, PAYCTL_MAIL_FROM: 'payctl <onboarding@payctl.test>' };
    const s = await startTestServer({ env });
    servers.push({ s });
    // Another server on the same database.
    const otherPlatform = await openPlatform({ db: s.dbPath, env });
    const other = await startServer({ platform: otherPlatform, port: 0, tickMs: 0, accessLog: 'off' });
    try {
      const body = withForm('signup-entry-sole-prop.json', s.demo.signup_form_id as string);
      const headers = { 'idempotency-key': 'onboard-window', 'content-type': 'application/json' };
      const post = (url: string) => fetch(url + PATH, { method: 'POST', headers, body: JSON.stringify(body) });
      const first = s.call('POST', PATH, { body, headers });
      await reached; // committed; the e-mail is on its way
      const during = await post(other.url);
      const duringText = await during.text();
      assert.equal(during.status, 409, duringText);
      assert.equal(JSON.parse(duringText).error.type, 'idempotency_error');
      for (const sock of sockets) sock.destroy();
      const answered = await first;
      assert.equal(answered.status, 202, answered.text);
      assert.equal(answered.body.email_delivery, 'failed');
      const again = await post(other.url);
      assert.equal(again.status, 202);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(await again.text(), answered.text);
    } finally {
      await other.close();
      await otherPlatform.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
