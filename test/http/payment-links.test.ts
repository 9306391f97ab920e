import '../helpers/env.js';
import { test, before, after, describe } from 'node:test';
import { contextFor } from '../../src/services/context.js';
import { execute, executeRaw } from '../../src/services/use-case.js';
import { IdempotencyClaim, requestHash } from '../../src/services/idempotency.js';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createGroup, createProcessor } from '../../src/services/groups/groups.js';
import { sha256 } from '../../src/lib/hash.js';
import { PaymentDeclinedError, payPaymentLink, SESSION_TTL_MS } from '../../src/services/payment-links/payment-links.js';
import { US_BILLING } from '../helpers/bodies.js';

const billing = US_BILLING;

const MINUTE = 60_000;
/** High enough that the status-code tests never meet the rate limit (it has its own servers below). */
const RELAXED = { payRateLimit: { points: 100_000, durationMs: 60_000 } };

let s: TestServer;
before(async () => {
  s = await startTestServer({ settings: RELAXED });
});
after(() => s.close());

const linksPath = () => `/api/v1/groups/${s.demo.group_id}/payment-links`;
const payPath = (id: string) => `/api/v1/payment-links/${id}/pay`;

async function createLink(body: Record<string, unknown> = {}) {
  const r = await s.call('POST', linksPath(), { key: s.demo.keys.manage_transactions, body: { amount: 2500, description: 'Concert ticket', ...body } });
  assert.equal(r.status, 200, r.text);
  return r.body as { id: string; amount: number | null; status: string; group_id: string };
}

async function session(id: string, server: TestServer = s): Promise<string> {
  const r = await server.call('GET', `/api/v1/payment-links/${id}`);
  assert.equal(r.status, 200, r.text);
  assert.ok(r.body.session_token, 'an available link yields a session token');
  return r.body.session_token as string;
}

const pay = (id: string, token: string | undefined, body: Record<string, unknown> = {}, path = payPath(id)) =>
  s.call('POST', path, { headers: token === undefined ? {} : { authorization: token }, body: { token: 'tok_visa', billing_address: billing, ...body } });

const advance = (ms: number) => s.p.clock.setOffset(s.p.clock.offsetMs() + ms);

const linkTransactions = (id: string) =>
  s.p.db.all<{ id: string; status: string; requested_amount: number; source: string; payment_method: string }>(
    'SELECT id, status, requested_amount, source, payment_method FROM transactions WHERE payment_link_id = ?',
    [id],
  );

async function mintCard(number = '4111111111111111'): Promise<string> {
  const year = new Date(s.p.clock.now()).getUTCFullYear() + 3;
  const r = await s.call('POST', '/api/v1/tokens', { body: { card: { number, expiration_month: 12, expiration_year: year, cvv: '123' } } });
  assert.equal(r.status, 200, r.text);
  return r.body.token as string;
}

describe('merchant endpoints (extensions)', () => {
  test('create, get, list and deactivate; amounts fixed or open', async () => {
    const fixed = await createLink({ redirect_url: 'https://shop.example/thanks' });
    assert.equal(fixed.amount, 2500);
    assert.equal(fixed.status, 'available');
    const open = await createLink({ amount: undefined, open_amount: true, description: 'Donation' });
    assert.equal(open.amount, null);

    const got = await s.call('GET', `${linksPath()}/${fixed.id}`, { key: s.demo.keys.manage_transactions });
    assert.equal(got.status, 200);
    assert.equal(got.body.redirect_url, 'https://shop.example/thanks');
    assert.equal(got.body.url, `${s.url}/pay/${fixed.id}`);

    const list = await s.call('GET', `${linksPath()}?status=available&limit=2`, { key: s.demo.keys.manage_transactions });
    assert.equal(list.status, 200);
    assert.equal(list.body.data.items.length, 2);
    assert.equal(list.body.data.items[0].id, open.id, 'newest first');
    assert.ok(list.body.data.total_count >= 4, 'demo links and the two above');

    const off = await s.call('POST', `${linksPath()}/${fixed.id}/deactivate`, { key: s.demo.keys.manage_transactions });
    assert.equal(off.status, 200);
    assert.equal(off.body.status, 'deactivated');
    const again = await s.call('POST', `${linksPath()}/${fixed.id}/deactivate`, { key: s.demo.keys.manage_transactions });
    assert.equal(again.body.status, 'deactivated', 'deactivating twice is harmless');
    const deactivated = await s.call('GET', `${linksPath()}?status=deactivated`, { key: s.demo.keys.manage_transactions });
    assert.ok(deactivated.body.data.items.some((l: { id: string }) => l.id === fixed.id));
  });

  test('create validation names the fields', async () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ description: 'x' }, ['amount']],
      [{ description: 'x', amount: 100, open_amount: true }, ['amount']],
      [{ description: 'x', amount: 0 }, ['amount']],
      [{ description: 'x', amount: 1.5 }, ['amount']],
      [{ amount: 100 }, ['description']],
      [{ amount: 100, description: 'x'.repeat(256) }, ['description']],
      [{ amount: 100, description: 'x', redirect_url: 'javascript:alert(1)' }, ['redirect_url']],
      [{ amount: 100, description: 'x', card_enabled: false }, ['card_enabled']],
      [{ amount: 100, description: 'x', status: 'paid' }, ['status']],
      [{ amount: 100, description: 'x', expires_at: 'tomorrow' }, ['expires_at']],
      [{ amount: 100, description: 'x', expires_at: '2001-01-01T00:00:00Z' }, ['expires_at']],
      [{ amount: 100, description: 'x', processor_id: 'nope' }, ['processor_id']],
    ];
    for (const [body, paths] of cases) {
      const r = await s.call('POST', linksPath(), { key: s.demo.keys.manage_transactions, body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path), paths, JSON.stringify(body));
    }
  });

  test('the extension endpoints need manage_transactions and hide other groups\' links', async () => {
    const link = await createLink();
    assert.equal((await s.call('GET', linksPath())).status, 401);
    assert.equal((await s.call('GET', linksPath(), { key: s.demo.keys.view_invoices })).status, 403);
    const other = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Elsewhere' });
    const { createKey } = await import('../../src/services/groups/keys.js');
    const otherKey = (await execute(createKey, s.p, contextFor(s.p, other.id), { permissions: ['manage_transactions'] })).key;
    const r = await s.call('GET', `/api/v1/groups/${other.id}/payment-links/${link.id}`, { key: otherKey });
    assert.equal(r.status, 404);
    assert.equal((await s.call('POST', `/api/v1/groups/${other.id}/payment-links/${link.id}/deactivate`, { key: otherKey })).status, 404);
  });
});

describe('public retrieval and session tokens', () => {
  test('public fields, a fresh session token each time, valid 30 minutes, stored only as a hash', async () => {
    const link = await createLink();
    const r = await s.call('GET', `/api/v1/payment-links/${link.id}`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), [
      'ach_enabled', 'amount', 'card_enabled', 'currency', 'description', 'expires_at', 'group_id', 'id', 'open_amount',
      'session_expires_at', 'session_token', 'status',
    ]);
    assert.equal(r.body.amount, 2500);
    assert.equal(r.body.status, 'available');
    assert.equal(Date.parse(r.body.session_expires_at) - s.p.clock.now().getTime() <= SESSION_TTL_MS, true);
    assert.ok(Date.parse(r.body.session_expires_at) - s.p.clock.now().getTime() > SESSION_TTL_MS - MINUTE);
    const second = await session(link.id);
    assert.notEqual(second, r.body.session_token);
    const token = r.body.session_token as string;
    assert.equal(await s.p.db.get('SELECT 1 FROM payment_link_sessions WHERE token_hash = ?', [token]), undefined);
    assert.ok(await s.p.db.get('SELECT 1 FROM payment_link_sessions WHERE token_hash = ?', [sha256(token)]));
    assert.equal((await s.call('GET', '/api/v1/payment-links/00000000-0000-7000-8000-000000000000')).status, 404);
  });

  test('401: missing, unknown and expired session token', async () => {
    const link = await createLink();
    const missing = await pay(link.id, undefined);
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.type, 'authentication_error');
    assert.match(missing.body.error.message, /session token/);
    const unknown = await pay(link.id, 'pls_notarealtoken0000000000000000');
    assert.equal(unknown.status, 401);
    assert.match(unknown.body.error.message, /unknown session token/);

    const token = await session(link.id);
    await advance(SESSION_TTL_MS + MINUTE);
    const expired = await pay(link.id, token);
    assert.equal(expired.status, 401);
    assert.match(expired.body.error.message, /expired/);
    assert.equal((await linkTransactions(link.id)).length, 0);
    // A new retrieval gives a working token.
    const fresh = await pay(link.id, await session(link.id));
    assert.equal(fresh.status, 200);
  });

  test('a session token is still good just before 30 minutes of platform time', async () => {
    const link = await createLink();
    const token = await session(link.id);
    await advance(SESSION_TTL_MS - MINUTE);
    assert.equal((await pay(link.id, `Bearer ${token}`)).status, 200, 'a Bearer prefix is tolerated');
  });

  test('403: the session token of another link; both pay paths are scoped', async () => {
    const a = await createLink();
    const b = await createLink();
    const tokenA = await session(a.id);
    const r = await pay(b.id, tokenA);
    assert.equal(r.status, 403);
    assert.equal(r.body.error.type, 'permission_error');
    const grouped = await pay(b.id, tokenA, {}, `/api/v1/groups/${s.demo.group_id}/payment-links/${b.id}/pay`);
    assert.equal(grouped.status, 403);
    assert.equal((await linkTransactions(b.id)).length, 0);
    assert.equal((await pay(a.id, tokenA)).status, 200, 'the token still pays its own link');
  });
});

describe('paying', () => {
  test('success: a pending sale, the link paid, the result of the spec', async () => {
    const link = await createLink({ redirect_url: 'https://shop.example/thanks' });
    const r = await pay(link.id, await session(link.id));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { id: link.id, status: 'paid', transaction_status: 'pending', redirect_url: 'https://shop.example/thanks' });
    const txns = await linkTransactions(link.id);
    assert.equal(txns.length, 1);
    assert.equal(txns[0]!.requested_amount, 2500);
    assert.equal(txns[0]!.source, 'forms');
    const got = await s.call('GET', `${linksPath()}/${link.id}`, { key: s.demo.keys.manage_transactions });
    assert.equal(got.body.status, 'paid');
    assert.equal(got.body.paid_transaction_id, txns[0]!.id);
    const pub = await s.call('GET', `/api/v1/payment-links/${link.id}`);
    assert.equal(pub.body.status, 'paid');
    const late = await pay(link.id, pub.body.session_token);
    assert.equal(late.status, 400, 'a session of a paid link is valid; the link is what refuses');
    assert.match(late.body.error.message, /already been paid/);
  });

  test('without a redirect_url the result points at the pay page', async () => {
    const link = await createLink();
    const r = await pay(link.id, await session(link.id));
    assert.equal(r.body.redirect_url, `${s.url}/pay/${link.id}`);
  });

  test('the group path pays a link of that group; another group is 404', async () => {
    const link = await createLink();
    const token = await session(link.id);
    const other = await execute(createGroup, s.p, contextFor(s.p, undefined), { name: 'Not yours' });
    const wrong = await pay(link.id, token, {}, `/api/v1/groups/${other.id}/payment-links/${link.id}/pay`);
    assert.equal(wrong.status, 404);
    const ok = await pay(link.id, token, {}, `/api/v1/groups/${s.demo.group_id}/payment-links/${link.id}/pay`);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.status, 'paid');
  });

  test('400: paid, deactivated and expired links are no longer available', async () => {
    const paid = await createLink();
    const tokenPaid = await session(paid.id);
    assert.equal((await pay(paid.id, tokenPaid)).status, 200);
    const again = await pay(paid.id, tokenPaid);
    assert.equal(again.status, 400);
    assert.equal(again.body.error.type, 'invalid_request');
    assert.match(again.body.error.message, /no longer available.*paid/);

    const off = await createLink();
    const tokenOff = await session(off.id);
    await s.call('POST', `${linksPath()}/${off.id}/deactivate`, { key: s.demo.keys.manage_transactions });
    const r = await pay(off.id, tokenOff);
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /no longer available.*deactivated/);

    const soon = new Date(s.p.clock.now().getTime() + 10 * MINUTE).toISOString();
    const expiring = await createLink({ expires_at: soon });
    const tokenExp = await session(expiring.id);
    await advance(11 * MINUTE);
    const late = await pay(expiring.id, tokenExp);
    assert.equal(late.status, 400);
    assert.match(late.body.error.message, /no longer available.*expired/);
    const got = await s.call('GET', `${linksPath()}/${expiring.id}`, { key: s.demo.keys.manage_transactions });
    assert.equal(got.body.status, 'expired');
    for (const id of [off.id, expiring.id]) assert.equal((await linkTransactions(id)).length, 0);
    assert.equal((await linkTransactions(paid.id)).length, 1);
  });

  test('400 validation names every bad field (spec bounds, unknown fields, amount only on open links)', async () => {
    const link = await createLink();
    const token = await session(link.id);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ token: undefined }, ['token']],
      [{ billing_address: undefined }, ['billing_address']],
      [{ billing_address: { ...billing, postal_code: '627011' } }, ['billing_address.postal_code']],
      [{ billing_address: { ...billing, country: 'CA', postal_code: '1234' } }, ['billing_address.postal_code']],
      [{ billing_address: { ...billing, city: 'x'.repeat(25), line_2: 'y'.repeat(33) } }, ['billing_address.city', 'billing_address.line_2']],
      [{ billing_address: { ...billing, first_name: 'x'.repeat(65), email: 'nope' } }, ['billing_address.email', 'billing_address.first_name']],
      [{ billing_address: { ...billing, subdivision: 'ILLI', country: 'USA' } }, ['billing_address.country', 'billing_address.subdivision']],
      [{ billing_address: { ...billing, country: 'FR', postal_code: '75001' } }, ['billing_address.country']],
      [{ billing_address: { ...billing, fax: '1' } }, ['billing_address.fax']],
      [{ amount: 100 }, ['amount']],
      [{ status: 'paid' }, ['status']],
      [{ token: 'tok_nonexistent' }, ['token']],
    ];
    for (const [body, paths] of cases) {
      const r = await pay(link.id, token, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.type, 'validation_error', JSON.stringify(body));
      assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path).sort(), paths, JSON.stringify(body));
    }
    const optional = await pay(link.id, token, { billing_address: { ...billing, company: 'Analytical Engines', line_2: 'Apt 2', phone: '5555550100' } });
    assert.equal(optional.status, 200, 'company, line_2 and phone are optional fields');
  });

  test('open amount: the payer names it (and must)', async () => {
    const link = await createLink({ amount: undefined, open_amount: true, description: 'Donation' });
    const token = await session(link.id);
    const without = await pay(link.id, token);
    assert.equal(without.status, 400);
    assert.deepEqual(without.body.error.fields.map((f: { path: string }) => f.path), ['amount']);
    assert.equal((await pay(link.id, token, { amount: 0 })).status, 400);
    const r = await pay(link.id, token, { amount: 1234 });
    assert.equal(r.status, 200);
    assert.equal((await linkTransactions(link.id))[0]!.requested_amount, 1234);
  });

  test('a declined card: 400 payment_declined with the processor\'s answer; the attempt is a declined transaction; the link stays payable', async () => {
    const link = await createLink();
    const token = await session(link.id);
    const cardToken = await mintCard('4000000000000002');
    const r = await pay(link.id, token, { token: cardToken });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.type, 'invalid_request');
    assert.equal(r.body.error.code, 'payment_declined');
    assert.equal(r.body.error.response_code, '05');
    assert.match(r.body.error.response_text, /Declined/);
    assert.match(r.body.error.transaction_id, /^[0-9a-f-]{36}$/);
    // Every attempt that reached the processor is a transaction row, as a declined sale is.
    const attempts = await linkTransactions(link.id);
    assert.deepEqual(attempts.map((t) => [t.id, t.status, t.source]), [[r.body.error.transaction_id, 'declined', 'forms']]);
    const row = await s.p.db.get<{ used_at: string | null }>('SELECT used_at FROM tokens WHERE token = ?', [cardToken]);
    assert.notEqual(row?.used_at, null, 'the token reached the processor: it is used, as in a declined sale');
    const insufficient = await pay(link.id, token, { token: 'tok_insufficient_funds' });
    assert.equal(insufficient.body.error.response_code, '51');
    const pub = await s.call('GET', `/api/v1/payment-links/${link.id}`);
    assert.equal(pub.body.status, 'available');
    assert.equal((await s.call('GET', `${linksPath()}/${link.id}`, { key: s.demo.keys.manage_transactions })).body.paid_transaction_id, null);
    const ok = await pay(link.id, token, { token: await mintCard() });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const all = await linkTransactions(link.id);
    assert.deepEqual(all.map((t) => t.status).sort(), ['declined', 'declined', 'pending']);
    // The declined attempts are in reporting like any declined sale.
    const report = await s.call('GET', `/api/v1/groups/${s.demo.group_id}/processing/${s.demo.linked_account_id}/transactions/reporting?type=table&statuses=declined&limit=1000`, { key: s.demo.keys.view_transactions });
    assert.equal(report.status, 200, JSON.stringify(report.body));
    const reported = new Set((report.body.items as Array<{ id: string }>).map((t) => t.id));
    for (const t of all.filter((x) => x.status === 'declined')) assert.ok(reported.has(t.id), `declined attempt ${t.id} is reported`);
  });

  test('a declined pay with an Idempotency-Key: the record holds the 400 from its commit, so a retry reaching any server at once replays it', async () => {
    const link = await createLink();
    const token = await session(link.id);
    const body = JSON.stringify({ token: await mintCard('4000000000000002'), billing_address: billing });
    const path = payPath(link.id);
    // The pay use case alone, as the dispatcher runs it, stopped before the dispatcher's settle.
    const claim = new IdempotencyClaim('public', 'declined-at-commit', requestHash('POST', path, body), 200, s.p.clock);
    const ctx = contextFor(s.p, undefined, { idempotency: claim });
    const input = { payment_link_id: link.id, authorization: token, client_ip: '127.0.0.1', body: JSON.parse(body) };
    const err = await executeRaw(payPaymentLink, s.p, ctx, input).then(() => assert.fail('the card declines'), (e: unknown) => e);
    assert.ok(err instanceof PaymentDeclinedError);
    const record = await s.p.db.repos.idempotency.find(s.p.db, 'public', 'declined-at-commit');
    assert.equal(record?.status, 400);
    assert.deepEqual(record?.body, err.toBody());
    // The same request over HTTP replays exactly that answer.
    const res = await fetch(s.url + path, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json', 'idempotency-key': 'declined-at-commit' }, body });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await res.json(), err.toBody());
  });

  test('a declined pay replayed with its Idempotency-Key answers the same 400 and records nothing new', async () => {
    const link = await createLink();
    const token = await session(link.id);
    const body = { token: 'tok_visa_declined', billing_address: billing };
    const headers = { authorization: token, 'idempotency-key': `decline-${link.id}` };
    const first = await s.call('POST', payPath(link.id), { headers, body });
    assert.equal(first.status, 400);
    assert.equal(first.body.error.code, 'payment_declined');
    const again = await s.call('POST', payPath(link.id), { headers, body });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, first.body);
    assert.equal((await linkTransactions(link.id)).length, 1);
  });

  test('card and ACH options are enforced', async () => {
    const cardOnly = await createLink();
    const r = await pay(cardOnly.id, await session(cardOnly.id), { token: 'tok_ach' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error.fields.map((f: { path: string }) => f.path), ['token']);
    const achOnly = await createLink({ card_enabled: false, ach_enabled: true });
    const tokenAch = await session(achOnly.id);
    assert.equal((await pay(achOnly.id, tokenAch)).status, 400, 'cards refused');
    const ok = await pay(achOnly.id, tokenAch, { token: 'tok_ach' });
    assert.equal(ok.status, 200);
    assert.equal((await linkTransactions(achOnly.id))[0]!.payment_method, 'ach');
  });

  test('20 simultaneous pays of one link: exactly one charge, the others 400 with their tokens unused', async () => {
    const link = await createLink();
    const sessions = await Promise.all(Array.from({ length: 20 }, () => session(link.id)));
    const cards: string[] = [];
    for (let i = 0; i < 20; i++) cards.push(await mintCard());
    const results = await Promise.all(sessions.map((t, i) => pay(link.id, t, { token: cards[i] })));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array(19).fill(400)]);
    for (const r of results.filter((x) => x.status === 400)) assert.match(r.body.error.message, /no longer available/);
    const txns = await linkTransactions(link.id);
    assert.equal(txns.length, 1);
    const used = await s.p.db.all<{ token: string }>(
      `SELECT token FROM tokens WHERE used_at IS NOT NULL AND token IN (${cards.map(() => '?').join(',')})`,
      cards,
    );
    assert.equal(used.length, 1, 'only the winner used its card token');
  });

  test('an Idempotency-Key replay returns the first answer without charging again', async () => {
    const link = await createLink();
    const token = await session(link.id);
    const headers = { authorization: token, 'idempotency-key': `pay-${link.id}` };
    const body = { token: 'tok_visa', billing_address: billing };
    const first = await s.call('POST', payPath(link.id), { headers, body });
    const second = await s.call('POST', payPath(link.id), { headers, body });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal((await linkTransactions(link.id)).length, 1);
  });
});

describe('hosted page', () => {
  test('GET /pay/{id} serves the page and its assets from this server; unknown links are 404', async () => {
    const link = await createLink();
    const page = await fetch(`${s.url}/pay/${link.id}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const html = await page.text();
    assert.match(html, /<label for="card-number">/);
    assert.match(html, /name="viewport"/);
    for (const asset of ['pay.css', 'pay.js']) {
      const r = await fetch(`${s.url}/pay/assets/${asset}`);
      assert.equal(r.status, 200, asset);
      assert.doesNotMatch(await r.text(), /https?:\/\/(?!127)/, `${asset} loads nothing from elsewhere`);
    }
    assert.doesNotMatch(html, /https?:\/\//);
    assert.equal((await fetch(`${s.url}/pay/assets/constructor`)).status, 404);
    const missing = await fetch(`${s.url}/pay/00000000-0000-7000-8000-000000000000`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /does not exist/);
  });
});

describe('rate limit per client address', () => {
  test('behind a trusted proxy: each address has its own count; 429 carries Retry-After and RateLimit headers', async () => {
    const server = await startTestServer({ trustProxy: true });
    try {
      const id = (server.demo.payment_link_ids as string[])[0]!;
      const from = (ip: string, path = `/api/v1/payment-links/${id}/pay`) =>
        server.call('POST', path, { headers: { 'x-forwarded-for': `${ip}, 10.0.0.1` }, body: { token: 'tok_visa', billing_address: billing } });
      const first = await from('203.0.113.7');
      assert.equal(first.status, 401, 'counted even without a session token');
      assert.equal(first.headers.get('ratelimit-limit'), '10');
      assert.equal(first.headers.get('ratelimit-remaining'), '9');
      assert.match(first.headers.get('ratelimit') ?? '', /^limit=10, remaining=9, reset=\d+$/);
      for (let i = 2; i <= 9; i++) assert.equal((await from('203.0.113.7')).status, 401);
      // The group path shares the count: the 10th attempt goes there, the 11th is refused on either path.
      const grouped = `/api/v1/groups/${server.demo.group_id}/payment-links/${id}/pay`;
      const tenth = await from('203.0.113.7', grouped);
      assert.equal(tenth.status, 401);
      assert.equal(tenth.headers.get('ratelimit-remaining'), '0');
      for (const path of [undefined, grouped]) {
        const limited = await from('203.0.113.7', path);
        assert.equal(limited.status, 429);
        assert.equal(limited.body.error.type, 'rate_limited');
        const retryAfter = Number(limited.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
        assert.equal(limited.headers.get('ratelimit-remaining'), '0');
        assert.equal(limited.headers.get('ratelimit-reset'), String(retryAfter));
        assert.equal(limited.headers.get('ratelimit-policy'), '10;w=60');
      }
      // Another address is not locked out by the first, and can pay.
      const other = await server.call('POST', `/api/v1/payment-links/${id}/pay`, {
        headers: { 'x-forwarded-for': '198.51.100.4', authorization: await session(id, server) },
        body: { token: 'tok_visa', billing_address: billing },
      });
      assert.equal(other.status, 200);
      assert.equal(other.headers.get('ratelimit-remaining'), '9');
      // Other routes are not limited.
      assert.equal((await server.call('GET', `/api/v1/payment-links/${id}`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status, 200);
    } finally {
      await server.close();
    }
  });

  test('without --trust-proxy a forged X-Forwarded-For does not reset the count; the limit is configurable', async () => {
    const server = await startTestServer({ settings: { payRateLimit: { points: 3, durationMs: 60_000 } } });
    try {
      const id = (server.demo.payment_link_ids as string[])[0]!;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await server.call('POST', `/api/v1/payment-links/${id}/pay`, {
          headers: { 'x-forwarded-for': `192.0.2.${i + 1}` },
          body: { token: 'tok_visa', billing_address: billing },
        });
        statuses.push(r.status);
        if (i === 0) assert.equal(r.headers.get('ratelimit-limit'), '3');
      }
      assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    } finally {
      await server.close();
    }
  });
});

test('a link of a group with two processors uses the one named', async () => {
  const second = await execute(createProcessor, s.p, contextFor(s.p, s.demo.group_id), { type: 'transaction_level', name: 'Second' });
  const link = await createLink({ processor_id: second.id });
  const got = await s.call('GET', `${linksPath()}/${link.id}`, { key: s.demo.keys.manage_transactions });
  assert.equal(got.body.processor_id, second.id);
  assert.equal((await pay(link.id, await session(link.id))).status, 200);
  const row = await s.p.db.get<{ processor_id: string }>('SELECT processor_id FROM transactions WHERE payment_link_id = ?', [link.id]);
  assert.equal(row?.processor_id, second.id);
});
