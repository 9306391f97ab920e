// A sandbox clock's modes over the real server (docs/clock.md "Clock modes"): running,
// frozen and accelerated, chosen at create and changed on the clock route, shown by every
// answer that shows a clock; a frozen clock's exact moves, its rows stamped with the
// frozen instant (ordered by id), nothing due without a move (the server's tick sees
// none), deliveries in real time, tokens and cards at an anchor years away, and two
// servers on one database agreeing on a mode.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN, newSandbox, type SandboxReply } from '../helpers/sandboxes.js';
import { cardTokenBody, saleBody } from '../helpers/bodies.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { runDueWork } from '../../src/services/clock/scheduler.js';
import { openPlatform } from '../../src/services/platform.js';
import { startServer } from '../../src/http/app.js';
import { MAX_CLOCK_RATE } from '../../src/domain/clock-modes.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN });
});
after(() => s.close());

const ANCHOR = '2030-01-15T12:00:00.000Z';
const frozen = (time = ANCHOR, more: Record<string, unknown> = {}) => newSandbox(s, { clock: { time, mode: 'frozen' }, ...more });
const sale = (sb: SandboxReply, opts: Parameters<typeof saleBody>[1] = {}) =>
  s.call('POST', `/api/v1/groups/${sb.group_id}/transaction`, { key: sb.keys.manage_transactions, body: saleBody(sb.processor_id, opts) });
const move = (sb: SandboxReply, body: unknown) => s.call('POST', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN, body });
const clockOf = async (sb: SandboxReply) => (await s.call('GET', `/api/v1/sandboxes/${sb.group_id}/clock`, { key: ADMIN })).body;
const txn = async (sb: SandboxReply, id: string) => (await s.call('GET', `/api/v1/groups/${sb.group_id}/transaction/${id}`, { key: sb.keys.view_transactions })).body;

describe('choosing a mode', () => {
  test('create: {time, mode} or the plain string (running); the answer, GET …/sandboxes/{g}, the list and the clock route show the mode', async () => {
    const f = await frozen();
    assert.equal(f.clock, ANCHOR);
    assert.equal(f.clock_mode, 'frozen');
    assert.equal(f.clock_rate, undefined);
    const shown = await s.call('GET', `/api/v1/sandboxes/${f.group_id}`, { key: ADMIN });
    assert.equal(shown.body.clock, ANCHOR);
    assert.equal(shown.body.clock_mode, 'frozen');
    const listed = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.find((x: { group_id: string }) => x.group_id === f.group_id);
    assert.equal(listed.clock_mode, 'frozen');
    assert.equal(listed.clock, ANCHOR);
    const c = await clockOf(f);
    assert.deepEqual([c.now, c.mode, c.offset_ms, c.rate], [ANCHOR, 'frozen', 0, undefined]);

    const plain = await newSandbox(s, { clock: '2031-06-01T00:00:00Z' });
    assert.equal(plain.clock_mode, 'running');
    assert.equal((await clockOf(plain)).mode, 'running');
    const none = await newSandbox(s);
    assert.equal(none.clock_mode, 'running', 'the API default stays running');

    const fast = await newSandbox(s, { clock: { time: ANCHOR, mode: 'accelerated', rate: 60 } });
    assert.equal(fast.clock_mode, 'accelerated');
    assert.equal(fast.clock_rate, 60);
    const fc = await clockOf(fast);
    assert.equal(fc.mode, 'accelerated');
    assert.equal(fc.rate, 60);
  });

  test('bad clocks are 400s naming the field and the rule; nothing is made', async () => {
    const before = (await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ mode: 'paused' }, 'clock.mode', /one of running, frozen, accelerated/],
      [{ mode: 'frozen', rate: 60 }, 'clock.rate', /only with mode accelerated/],
      [{ mode: 'accelerated' }, 'clock.rate', /required with mode accelerated/],
      [{ mode: 'accelerated', rate: MAX_CLOCK_RATE + 1 }, 'clock.rate', new RegExp(`at most ${MAX_CLOCK_RATE}`)],
      [{ mode: 'accelerated', rate: 1 }, 'clock.rate', /at least 2/],
      [{ time: '2027-02-30T00:00:00Z', mode: 'frozen' }, 'clock.time', /not a real date/],
      [{ mode: 'frozen', speed: 2 }, 'clock.speed', /not a field/],
      ['2027-02-30', 'clock', /not a real date/],
    ];
    for (const [clock, path, message] of cases) {
      const r = await s.call('POST', '/api/v1/sandboxes', { key: ADMIN, body: { clock } });
      assert.equal(r.status, 400, `${JSON.stringify(clock)}: ${r.text}`);
      const field = r.body.error.fields.find((f: { path: string }) => f.path === path);
      assert.ok(field, `${JSON.stringify(clock)}: ${r.text}`);
      assert.match(field.message, message);
    }
    assert.equal((await s.call('GET', '/api/v1/sandboxes', { key: ADMIN })).body.data.length, before);
  });

  test('the clock route changes the mode at the time now (or where advance/set take it); bad changes are 400s', async () => {
    const sb = await newSandbox(s, { clock: '2032-03-15T12:00:00Z' });
    const froze = await move(sb, { mode: 'frozen' });
    assert.equal(froze.status, 200, froze.text);
    assert.equal(froze.body.mode, 'frozen');
    const at = froze.body.now;
    assert.ok(at.startsWith('2032-03-15T12:00'), at);
    await sale(sb);
    assert.equal((await clockOf(sb)).now, at, 'stands still');
    const thawed = await move(sb, { set: '2032-03-16T12:00:00Z', mode: 'running' });
    assert.equal(thawed.body.mode, 'running');
    assert.ok(thawed.body.now >= '2032-03-16T12:00:00.000Z' && thawed.body.now < '2032-03-16T12:01:00.000Z', thawed.body.now);
    const fast = await move(sb, { mode: 'accelerated', rate: 3600 });
    assert.equal(fast.body.rate, 3600);
    for (const [body, path] of [
      [{ mode: 'accelerated' }, 'rate'],
      [{ mode: 'frozen', rate: 5 }, 'rate'],
      [{ mode: 'stopped' }, 'mode'],
      [{ advance: '1d', set: '2040-01-01' }, 'set'],
      [{}, 'advance'],
    ] as const) {
      const r = await move(sb, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.ok(r.body.error.fields.some((f: { path: string }) => f.path === path), `${JSON.stringify(body)}: ${r.text}`);
    }
    assert.equal((await clockOf(sb)).mode, 'accelerated', 'a refused change changes nothing');
  });
});

describe('a frozen clock', () => {
  test("moves are exact: advance('1d') from the anchor is the next day to the millisecond; set is exact too", async () => {
    const sb = await frozen();
    const a = await move(sb, { advance: '1d' });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.now, '2030-01-16T12:00:00.000Z');
    assert.equal(a.body.mode, 'frozen');
    assert.equal((await clockOf(sb)).now, '2030-01-16T12:00:00.000Z');
    assert.equal((await move(sb, { advance: '1h30m' })).body.now, '2030-01-16T13:30:00.000Z');
    assert.equal((await move(sb, { set: '2030-02-01T08:15:00.250Z' })).body.now, '2030-02-01T08:15:00.250Z');
    const back = await move(sb, { set: '2030-01-20T00:00:00Z' });
    assert.equal(back.status, 400, 'never backwards');
  });

  test('everything made between two moves is stamped with the frozen instant; lists order it by id', async () => {
    const sb = await frozen(ANCHOR, { demo: true });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await sale(sb, { amount: 100 + i });
      assert.equal(t.status, 200, t.text);
      assert.equal(t.body.created_at, ANCHOR);
      ids.push(t.body.id);
    }
    const customer = await s.call('POST', `/api/v1/groups/${sb.group_id}/customers`, {
      key: sb.keys.manage_customers,
      body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    });
    assert.equal(customer.status, 200, customer.text);
    assert.equal(customer.body.created_at, ANCHOR);
    // Ids are time-ordered by real time, whatever the group's clock: made in this order, sorted in this order.
    assert.deepEqual([...ids].sort(), ids);
    const events = (await s.call('GET', `/api/v1/groups/${sb.group_id}/events?limit=100`, { key: sb.keys.view_transactions })).body.data;
    for (const e of events.items ?? events) assert.equal(e.created_at, ANCHOR);
    // The report (newest first: created_at desc, then id desc) breaks the tie by id.
    const report = await s.call('GET', `/api/v1/groups/${sb.group_id}/processing/${sb.linked_account_id}/transactions/reporting?type=table&limit=1000`, {
      key: sb.keys.view_transactions,
    });
    assert.equal(report.status, 200, report.text);
    const mine = (report.body.items as Array<{ id: string }>).filter((r) => ids.includes(r.id)).map((r) => r.id);
    assert.deepEqual(mine, [...ids].reverse());
  });

  test('nothing falls due without a move: the tick finds no settlement at 23:59:59.999; a move past 00:00 settles', async () => {
    const sb = await frozen('2030-01-15T23:59:59.999Z');
    const t = await sale(sb);
    assert.equal(t.body.status, 'pending');
    const work = await runDueWork(s.p); // the server's tick
    assert.equal(work.settlement ?? 0, 0, JSON.stringify(work));
    assert.equal((await txn(sb, t.body.id)).status, 'pending');
    assert.equal((await clockOf(sb)).now, '2030-01-15T23:59:59.999Z');
    const moved = await move(sb, { advance: '1ms' });
    assert.equal(moved.body.now, '2030-01-16T00:00:00.000Z');
    assert.equal((await txn(sb, t.body.id)).status, 'settled');
  });

  test('webhooks keep real time: the first attempt goes out without a move, its retry is due seconds from now', async () => {
    const receiver = await startReceiver(() => ({ status: 500, body: 'no' }));
    try {
      const sb = await frozen('2041-01-15T12:00:00Z');
      const ep = await s.call('POST', `/api/v1/groups/${sb.group_id}/webhook_endpoints`, {
        key: sb.keys.manage_webhooks,
        body: { url: receiver.url, enabled_events: ['transaction.approved'] },
      });
      assert.equal(ep.status, 200, ep.text);
      const t = await sale(sb);
      assert.equal(t.status, 200);
      await receiver.waitFor(1);
      assert.equal(JSON.parse(receiver.received[0]!.body).data.object.id, t.body.id);
      // The failed attempt's retry: 5 s of real time (the platform clock), not of the frozen clock.
      const realNow = Date.now();
      let next: string | null = null;
      for (let i = 0; i < 200 && next === null; i++) {
        const attempts = await s.call('GET', `/api/v1/groups/${sb.group_id}/webhook_endpoints/${ep.body.id}/deliveries`, { key: sb.keys.manage_webhooks });
        next = attempts.body.data?.items?.[0]?.next_attempt_at ?? null;
        if (next === null) await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(next !== null, 'the attempt was recorded');
      const due = Date.parse(next);
      assert.ok(Math.abs(due - (realNow + 5_000)) < 60_000, `retry due ${next}, real time ${new Date(realNow).toISOString()}`);
      assert.equal((await clockOf(sb)).now, '2041-01-15T12:00:00.000Z', 'nothing moved the clock');
    } finally {
      await receiver.close();
    }
  });

  test('tokens and test cards work at an anchor years away (ahead and behind): minted tokens and card expiry keep the platform clock', async () => {
    const year = new Date().getUTCFullYear();
    for (const time of ['2045-01-15T12:00:00Z', '2021-01-15T12:00:00Z']) {
      const sb = await frozen(time);
      // A card valid now (it expires next year), minted now: valid at the sandbox's anchor.
      const tok = await s.call('POST', '/api/v1/tokens', { body: { card: { ...cardTokenBody('4111111111111111', '123').card, expiration_year: year + 1 } } });
      assert.equal(tok.status, 200, tok.text);
      const t = await sale(sb, { token: tok.body.token });
      assert.equal(t.status, 200, `${time}: ${t.text}`);
      assert.equal(t.body.status, 'pending', t.text);
      const fixed = await sale(sb, { token: 'tok_visa' });
      assert.equal(fixed.body.status, 'pending', fixed.text);
      // Moving the sandbox's clock a year does not expire a minted token (15 minutes of platform time).
      const tok2 = await s.call('POST', '/api/v1/tokens', { body: cardTokenBody('5555555555554444', '987') });
      await move(sb, { advance: '365d' });
      assert.equal((await sale(sb, { token: tok2.body.token })).body.status, 'pending');
    }
  });
});

describe('an accelerated clock', () => {
  test('runs rate times real time, and the tick runs its due work at its own time', async () => {
    const sb = await newSandbox(s, { clock: { time: '2030-01-15T23:59:00Z', mode: 'accelerated', rate: MAX_CLOCK_RATE } });
    const t0 = Date.now();
    const c0 = Date.parse((await clockOf(sb)).now);
    const t = await sale(sb);
    assert.equal(t.body.status, 'pending');
    // A day per second: 00:00 of the sandbox comes within a second of real time; the tick settles it then.
    let status = 'pending';
    for (let i = 0; i < 300 && status === 'pending'; i++) {
      await runDueWork(s.p);
      status = (await txn(sb, t.body.id)).status;
      if (status === 'pending') await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(status, 'settled');
    const t1 = Date.now();
    const c1 = Date.parse((await clockOf(sb)).now);
    const t2 = Date.now();
    assert.ok(c1 - c0 >= MAX_CLOCK_RATE * (t1 - t0) - MAX_CLOCK_RATE * 50, `moved ${c1 - c0} ms in ${t1 - t0} ms`);
    assert.ok(c1 - c0 <= MAX_CLOCK_RATE * (t2 - t0 + 50), `moved ${c1 - c0} ms in at most ${t2 - t0} ms`);
  });
});

test('two servers on one database agree on a mode and its moves', async () => {
  const other = await openPlatform({ db: s.dbPath, env: s.p.env });
  const second = await startServer({ platform: other, port: 0, tickMs: 0, accessLog: 'off', adminToken: ADMIN });
  try {
    const sb = await newSandbox(s, { clock: '2033-05-15T12:00:00Z' });
    const there = (path: string, body?: unknown) =>
      fetch(second.url + path, { method: body ? 'POST' : 'GET', headers: { authorization: ADMIN, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined }).then(
        (r) => r.json() as Promise<Record<string, unknown>>,
      );
    assert.equal((await there(`/api/v1/sandboxes/${sb.group_id}/clock`)).mode, 'running');
    const froze = await move(sb, { mode: 'frozen' });
    const seen = await there(`/api/v1/sandboxes/${sb.group_id}/clock`);
    assert.deepEqual([seen.mode, seen.now], ['frozen', froze.body.now]);
    // A sale through the other server (its cached keys and clocks) is stamped with the frozen instant.
    const t = await fetch(`${second.url}/api/v1/groups/${sb.group_id}/transaction`, {
      method: 'POST',
      headers: { authorization: sb.keys.manage_transactions!, 'content-type': 'application/json' },
      body: JSON.stringify(saleBody(sb.processor_id)),
    }).then((r) => r.json() as Promise<{ created_at: string }>);
    assert.equal(t.created_at, froze.body.now);
    const moved = await there(`/api/v1/sandboxes/${sb.group_id}/clock`, { advance: '2h' });
    assert.equal(moved.now, new Date(Date.parse(froze.body.now) + 7_200_000).toISOString());
    assert.equal((await clockOf(sb)).now, moved.now);
  } finally {
    await second.close();
    await other.close();
  }
});
