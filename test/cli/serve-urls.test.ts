// Page URLs printed by commands are the address the server really serves: `payctl serve`
// records it beside the database (server.json) while it runs, `--public-url` replaces it,
// and a taken port is one line naming the holder and --port, never Node's raw EADDRINUSE.
import '../helpers/env.js';
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runCliJson } from '../helpers/cli.js';
import { dataDirOf, tempDbPath } from '../helpers/platform.js';
import { spawnServe } from '../helpers/serve-process.js';

let db: string;
let group: string;
let invoiceId: string;
before(async () => {
  db = tempDbPath();
  const demo = await runCliJson<{ group_id: string; invoice_ids: string[] }>(['init', '--demo'], { db });
  group = demo.group_id;
  invoiceId = demo.invoice_ids[0]!;
});

const env = { PAYCTL_PUBLIC_URL: '' };
const newLink = async () => (await runCliJson<{ url: string }>(['link', 'create', '--group', group, '--amount', '5.00', '--description', 'Ticket', '--json'], { db, env })).url;

test('while a server runs, link create and invoice get print its address; once it stops, the default', async () => {
  const server = await spawnServe({ db, env });
  try {
    assert.notEqual(server.url, 'http://127.0.0.1:4000');
    assert.ok(existsSync(join(dataDirOf(db), 'server.json')));
    assert.ok((await newLink()).startsWith(`${server.url}/pay/`));
    const invoice = await runCli(['invoice', 'get', invoiceId, '--group', group], { db, env });
    assert.equal(invoice.code, 0, invoice.stderr);
    assert.match(invoice.stdout, new RegExp(`${server.url}/invoices/`));
    assert.doesNotMatch(invoice.stdout, /:4000/);
    // serve names a pay page to open first (the demo group's newest open link), on its own address.
    assert.match(server.stdout(), new RegExp(`Pages at ${server.url}; pay page: ${server.url}/pay/[0-9a-f-]{36}`));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  assert.ok(!existsSync(join(dataDirOf(db), 'server.json')), 'removed on a clean stop');
  assert.ok((await newLink()).startsWith('http://127.0.0.1:4000/pay/'));
});

test('--public-url: the pages are printed with it, by serve and by the other commands', async () => {
  const server = await spawnServe({ db, env, args: ['--tick', '0', '--access-log', 'off', '--public-url', 'https://pay.example.com/'] });
  try {
    assert.match(server.stdout(), /Pages at https:\/\/pay\.example\.com \(--public-url\)/);
    assert.ok((await newLink()).startsWith('https://pay.example.com/pay/'));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

test('a server killed without cleaning up leaves a record that is ignored', async () => {
  const server = await spawnServe({ db, env });
  server.child.kill('SIGKILL');
  await server.exited;
  assert.ok(existsSync(join(dataDirOf(db), 'server.json')));
  assert.ok((await newLink()).startsWith('http://127.0.0.1:4000/pay/'));
});

test('a taken port: one line saying it is in use, by whom, and how to pick another; exit 1', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    const r = await runCli(['serve', '--port', String(port)], { db, env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use \\(by pid ${process.pid}: `));
    assert.match(r.stderr.replace(/\s*\n\s*›?\s*/g, ' '), new RegExp(`payctl serve --port ${port + 1} \\(--port 0 takes any free one\\)`));
    assert.doesNotMatch(r.stderr, /EADDRINUSE|\n\s+at /);
  } finally {
    holder.close();
  }
});

test('a port taken by this database\'s own server says so', async () => {
  const server = await spawnServe({ db, env });
  try {
    const port = new URL(server.url).port;
    const r = await runCli(['serve', '--port', port], { db, env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr.replace(/\s*\n\s*›?\s*/g, ' '), new RegExp(`already in use \\(by payctl serve of this database, pid ${server.pid}\\)`));
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
