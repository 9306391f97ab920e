// `payctl serve` prints the dashboard's sign-in link (the admin token in it, as a notebook
// server does), and opening that link signs in: a session cookie and a redirect to the URL
// without the token.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { runCliJson } from '../helpers/cli.js';
import { tempDbPath } from '../helpers/platform.js';
import { spawnServe } from '../helpers/serve-process.js';

test('payctl serve prints "Dashboard: …/dashboard?token=…", and the link signs in', async () => {
  const db = tempDbPath();
  await runCliJson(['init', '--demo'], { db });
  const server = await spawnServe({ db });
  try {
    // The line follows the first one that spawnServe waits for: read on until it is there.
    while (!/^Dashboard: /m.test(server.stdout())) await once(server.child.stdout!, 'data');
    const line = /^Dashboard: (\S+)$/m.exec(server.stdout())![1]!;
    const link = new URL(line);
    assert.equal(`${link.origin}${link.pathname}`, `${server.url}/dashboard`);
    assert.match(link.searchParams.get('token') ?? '', /^padm_\w+$/);
    const opened = await fetch(line, { redirect: 'manual' });
    assert.equal(opened.status, 303);
    assert.equal(opened.headers.get('location'), '/dashboard');
    const cookie = opened.headers.get('set-cookie') ?? '';
    assert.match(cookie, /HttpOnly/);
    const page = await fetch(`${server.url}/dashboard`, { headers: { cookie: cookie.split(';')[0]! } });
    assert.match(await page.text(), /Demo Merchant/);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
