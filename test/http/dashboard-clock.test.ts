// The dashboard's clock panel during a long catch-up: "Advance by" two years on a sandbox
// with a daily subscription (the clock route's answer budget 0, so the move answers at
// once and the work goes on), then the group's pages show the move's `work` and that a
// catch-up runs; the panel's refresh (GET …/clock, what htmx reloads every second) shows
// what is still due with a progress bar, the count going down, until "Nothing is being
// caught up" — each figure the clock route's own.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ADMIN_TOKEN, makeSandbox, type DashboardSandbox, httpSession } from '../helpers/dashboard.js';

let s: TestServer;
let box: DashboardSandbox;
let cookie: string;
let csrf: string;
before(async () => {
  s = await startTestServer({ adminToken: ADMIN_TOKEN, env: { ...process.env, PAYCTL_CLOCK_ANSWER_MS: '0' } });
  box = await makeSandbox(s, 'Catch-up sandbox');
  ({ cookie, csrf } = await httpSession(s));
});
after(async () => {
  await s?.close();
});

function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function dailySubscription(): Promise<void> {
  const key = box.keys.manage_transactions!;
  const g = `/api/v1/groups/${box.group_id}`;
  const recurring = `${g}/processing/${box.linked_account_id}/recurring`;
  const customer = await s.call('POST', `${g}/customers`, { key: box.keys.manage_customers, body: { first_name: 'Long', last_name: 'Catch-up' } });
  assert.equal(customer.status, 200, customer.text);
  const plan = await s.call('POST', `${recurring}/plans`, { key, body: { name: 'Daily', amount: 700, billing_cycle: 'daily', duration: 0 } });
  assert.equal(plan.status, 200, plan.text);
  const sub = await s.call('POST', `${recurring}/subscription`, { key, body: { plan_id: plan.body.id, customer_id: customer.body.id, payment_details: { token: 'tok_visa' } } });
  assert.equal(sub.status, 200, sub.text);
}

/** The charges the panel says are still due, or undefined when it says nothing is being caught up. */
function chargesDue(panel: string): number | undefined {
  if (panel.includes('Nothing is being caught up.')) return undefined;
  const m = /Catching up \(running(?:: [a-z-]+)?\) — (\d+) charges and (\d+) settlements still due\./.exec(panel);
  assert.ok(m, `the panel shows the catch-up's progress: ${panel}`);
  assert.match(panel, /<progress aria-label="Catch-up progress"><\/progress>/);
  assert.match(panel, /hx-trigger="load delay:1s"/, 'the panel refreshes itself while it runs');
  return Number(m[1]);
}

test('a long "Advance by" shows the work it ran, then the catch-up’s progress going down until it has caught up', { timeout: 300_000 }, async () => {
  await dailySubscription();
  const faults = `/dashboard/groups/${box.group_id}/faults`;
  const moved = await send('POST', `/dashboard/groups/${box.group_id}/clock`, { cookie, origin: s.url, referer: s.url + faults, 'content-type': 'application/x-www-form-urlencoded' }, `_csrf=${csrf}&advance=730d`);
  assert.equal(moved.status, 303, moved.text);
  assert.equal(moved.headers.location, faults, 'back to the page the form was on');

  const page = await send('GET', faults, { cookie });
  assert.match(page.text, /<h3>What the last move ran<\/h3>/, "the move's work");

  const seen: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const panel = await send('GET', `/dashboard/groups/${box.group_id}/clock`, { cookie });
    assert.equal(panel.status, 200);
    const due = chargesDue(panel.text);
    if (due === undefined) break;
    if (seen.at(-1) !== due) seen.push(due);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(seen.length >= 2, `the progress was seen moving (${seen.join(' → ')})`);
  assert.ok(seen[0]! > 0, `charges still due at first: ${seen[0]}`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! < seen[i - 1]!, `the count goes down: ${seen.join(' → ')}`);

  const done = await s.call('GET', `/api/v1/sandboxes/${box.group_id}/clock`, { headers: { authorization: ADMIN_TOKEN } });
  assert.equal(done.body.catch_up.status, 'caught_up', 'the panel said so when the clock route does');
  const after = await send('GET', `/dashboard/groups/${box.group_id}/clock`, { cookie });
  assert.match(after.text, /Nothing is being caught up\./);
  assert.doesNotMatch(after.text, /<progress/);
});
