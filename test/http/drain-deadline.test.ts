// A close drains the requests in flight, up to a deadline (docs/operations.md, "Stopping"):
// a request that never ends — here a body that never finishes arriving; in service, a store
// that never answers — must not hold a SIGTERM for good. Past the deadline its connection
// is closed unanswered and stderr says so; a request that ends in time is answered.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestServer } from '../helpers/server.js';

/** A POST whose body stops short of its Content-Length (`finish` sends the rest); `ended`: what the server sent once the connection ends. */
function stuckPost(url: string, path: string, key: string, length = 1000): { sent: Promise<void>; ended: Promise<string>; finish(rest: string): void } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let got = '';
  socket.on('data', (d) => (got += d.toString()));
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(got)));
  const sent = new Promise<void>((resolve) =>
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"first_name":`);
      resolve();
    }),
  );
  socket.on('error', () => undefined);
  return { sent, ended, finish: (rest) => socket.write(rest) };
}

test('a close waits for requests in flight up to its deadline, then closes their connections and says so', async () => {
  const s = await startTestServer({ drainMs: 500 });
  const stuck = stuckPost(s.url, `/api/v1/groups/${s.demo.group_id}/customers`, s.demo.keys.manage_customers);
  await stuck.sent;
  await new Promise((r) => setTimeout(r, 200)); // the request has begun: its body is being read
  const said: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (said.push(String(chunk)), write(chunk, ...rest))) as typeof process.stderr.write;
  const started = performance.now();
  try {
    await s.close();
  } finally {
    process.stderr.write = write;
  }
  const took = performance.now() - started;
  assert.ok(took >= 450, `it waited for the request first (${Math.round(took)} ms)`);
  assert.ok(took < 5_000, `the close did not wait past its deadline for good (${Math.round(took)} ms)`);
  assert.equal(await stuck.ended, '', 'the stuck connection was closed unanswered');
  assert.ok(
    said.some((l) => /closing: 1 request\(s\) still running after 0\.5 s; their connections are closed unanswered/.test(l)),
    `stderr names what was cut: ${JSON.stringify(said)}`,
  );
});

test('a request that ends within the deadline is answered, and the close waits no longer than it', async () => {
  const s = await startTestServer({ drainMs: 20_000 });
  const slow = stuckPost(s.url, `/api/v1/groups/${s.demo.group_id}/customers`, s.demo.keys.manage_customers, 24);
  await slow.sent;
  await new Promise((r) => setTimeout(r, 200));
  const started = performance.now();
  const closed = s.close();
  await new Promise((r) => setTimeout(r, 300));
  slow.finish('"Drained"}'); // the rest of the body, while the close waits
  await closed;
  assert.ok(performance.now() - started < 5_000, 'closed once the request ended, well before the deadline');
  assert.match(await slow.ended, /^HTTP\/1\.1 200 /, 'the request in flight was answered');
});
