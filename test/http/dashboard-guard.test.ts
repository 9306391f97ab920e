// The dashboard's door over plain HTTP: the token link and the login form make a session
// cookie (HttpOnly, SameSite=Strict, no token left in the URL); without a session pages ask
// for the token and POSTs are refused; every POST needs the session's CSRF token and this
// server's Origin; a request naming a foreign Host is refused (DNS rebinding), signed in or
// not; every page carries its Content-Security-Policy.
import '../helpers/env.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { TestServer } from '../helpers/server.js';
import { ADMIN_TOKEN, dashboardServer } from '../helpers/dashboard.js';

let s: TestServer;
before(async () => {
  s = await dashboardServer();
});
after(async () => {
  await s?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A raw request (fetch will not send a Host of our choosing). */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
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

const form = 'application/x-www-form-urlencoded';

async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const r = await send('GET', `/dashboard?token=${ADMIN_TOKEN}`);
  const cookie = String(r.headers['set-cookie']?.[0]).split(';')[0]!;
  const page = await send('GET', '/dashboard', { cookie });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1];
  assert.ok(csrf, 'the signed-in page carries a CSRF token');
  return { cookie, csrf };
}

test('the token link answers a session cookie and a redirect to the URL without the token', async () => {
  const r = await send('GET', `/dashboard?token=${ADMIN_TOKEN}`);
  assert.equal(r.status, 303);
  assert.equal(r.headers.location, '/dashboard');
  const cookie = String(r.headers['set-cookie']?.[0]);
  assert.match(cookie, /^payctl_dashboard=\w+;/);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  assert.doesNotMatch(cookie, new RegExp(ADMIN_TOKEN));
});

test('a wrong token is refused; without a session the page asks for the token and shows no group', async () => {
  const wrong = await send('GET', '/dashboard?token=padm_wrong');
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers['set-cookie'], undefined);
  const bare = await send('GET', '/dashboard');
  assert.equal(bare.status, 200);
  assert.match(bare.text, /Admin token/);
  assert.doesNotMatch(bare.text, new RegExp(s.demo.group_id));
  const deeper = await send('GET', `/dashboard/groups/${s.demo.group_id}/transactions`);
  assert.equal(deeper.status, 303);
  assert.equal(deeper.headers.location, '/dashboard');
  const post = await send('POST', '/dashboard/sandboxes', { origin: s.url, 'content-type': form }, 'name=x');
  assert.equal(post.status, 401);
});

test('the login form takes the token (from this server’s own page only)', async () => {
  const ok = await send('POST', '/dashboard/login', { origin: s.url, 'content-type': form }, `token=${ADMIN_TOKEN}`);
  assert.equal(ok.status, 303);
  assert.match(String(ok.headers['set-cookie']?.[0]), /payctl_dashboard=/);
  const foreign = await send('POST', '/dashboard/login', { origin: 'http://evil.example', 'content-type': form }, `token=${ADMIN_TOKEN}`);
  assert.equal(foreign.status, 403);
  assert.equal(foreign.headers['set-cookie'], undefined);
});

test('a POST needs the session’s CSRF token and this server’s Origin', async () => {
  const { cookie, csrf } = await signIn();
  const before = (await s.call('GET', '/api/v1/sandboxes', { headers: { authorization: ADMIN_TOKEN } })).body.data.length;
  const cases: Array<[string, Record<string, string>, string]> = [
    ['no CSRF token', { cookie, origin: s.url, 'content-type': form }, 'name=a'],
    ['a wrong CSRF token', { cookie, origin: s.url, 'content-type': form }, `_csrf=${csrf.slice(1)}x&name=a`],
    ['no Origin', { cookie, 'content-type': form }, `_csrf=${csrf}&name=a`],
    ['another Origin', { cookie, origin: 'http://evil.example', 'content-type': form }, `_csrf=${csrf}&name=a`],
  ];
  for (const [what, headers, body] of cases) {
    const r = await send('POST', '/dashboard/sandboxes', headers, body);
    assert.equal(r.status, 403, what);
  }
  assert.equal((await s.call('GET', '/api/v1/sandboxes', { headers: { authorization: ADMIN_TOKEN } })).body.data.length, before, 'nothing was made');
  const made = await send('POST', '/dashboard/sandboxes', { cookie, origin: s.url, 'content-type': form }, `_csrf=${csrf}&name=Made+here&demo=true`);
  assert.equal(made.status, 303);
  const after = (await s.call('GET', '/api/v1/sandboxes', { headers: { authorization: ADMIN_TOKEN } })).body.data as Array<{ name: string }>;
  assert.ok(after.some((x) => x.name === 'Made here'));
});

test('a foreign Host is refused, signed in or not; localhost is this server', async () => {
  const { cookie } = await signIn();
  const port = new URL(s.url).port;
  for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.2:${port}`, `localhost:${Number(port) + 1}`]) {
    const r = await send('GET', '/dashboard', { host, cookie });
    assert.equal(r.status, 421, host);
    assert.doesNotMatch(r.text, new RegExp(s.demo.group_id));
    const t = await send('GET', `/dashboard?token=${ADMIN_TOKEN}`, { host });
    assert.equal(t.status, 421, `${host}: the token link`);
  }
  const local = await send('GET', '/dashboard', { host: `localhost:${port}`, cookie });
  assert.equal(local.status, 200);
});

test('pages carry the Content-Security-Policy and escape what clients sent', async () => {
  const { cookie } = await signIn();
  const r = await send('GET', `/dashboard/search?q=${encodeURIComponent('<script>alert(1)</script>')}`, { cookie });
  assert.equal(r.status, 404);
  assert.match(String(r.headers['content-security-policy']), /default-src 'none'; script-src 'self'/);
  assert.equal(r.headers['x-frame-options'], 'DENY');
  assert.ok(r.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(!r.text.includes('<script>alert(1)'));
});

test('no page shows an API key, the admin token or a webhook secret', async () => {
  const { cookie, csrf } = await signIn();
  const box = await s.call('POST', '/api/v1/sandboxes', { headers: { authorization: ADMIN_TOKEN }, body: { name: 'Secrets', demo: true } });
  const g = box.body.group_id as string;
  const hook = await s.call('POST', `/api/v1/groups/${g}/webhook_endpoints`, { key: box.body.keys.manage_webhooks, body: { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] } });
  assert.equal(hook.status, 200, hook.text);
  const secrets = [ADMIN_TOKEN, ...Object.values(box.body.keys as Record<string, string>), hook.body.secret as string];
  const made = await send('POST', '/dashboard/sandboxes', { cookie, origin: s.url, 'content-type': form }, `_csrf=${csrf}&name=Shown`);
  const pages = ['/dashboard', ...['transactions', 'customers', 'events', 'faults', 'recording', 'reports'].map((v) => `/dashboard/groups/${g}/${v}`)];
  for (const path of pages) {
    const r = await send('GET', path, { cookie });
    assert.equal(r.status, 200, path);
    for (const secret of secrets) assert.ok(!r.text.includes(secret), `${path} shows a secret`);
    assert.doesNotMatch(r.text, /padm_|whsec_/, path);
  }
  assert.equal(made.status, 303);
  const after = await send('GET', '/dashboard', { cookie });
  assert.doesNotMatch(after.text, /pk_|sk_|padm_/);
});

test('an unknown page or a malformed id is a 404 page, never a 500', async () => {
  const { cookie } = await signIn();
  for (const path of ['/dashboard/nothing-here', `/dashboard/groups/${s.demo.group_id}/objects/transaction/%E0%A4%A`, '/dashboard/groups/no-such-group/transactions']) {
    const r = await send('GET', path, { cookie });
    assert.equal(r.status, 404, path);
    assert.match(String(r.headers['content-type']), /^text\/html/);
  }
});
