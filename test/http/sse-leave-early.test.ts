// Clients that leave an event stream before its head is written (a closed tab, a killed
// test) leave nothing running in the server: no heartbeat timer for a gone connection
// (better-sse started its keep-alive after a disconnect it had already handled, and the
// interval ran for the life of the process: src/http/sse-session.ts). Checked the way a
// process sees it: after the server closes, no timer is left holding the process.
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestServer } from '../helpers/server.js';
import { ADMIN, newSandbox } from '../helpers/sandboxes.js';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/** A raw request for `path` whose socket is destroyed after `afterMs` (0: at once after the request is written). */
function leaveEarly(url: string, path: string, headers: Record<string, string>, afterMs: number): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
      const gone = () => {
        socket.destroy();
        resolve();
      };
      if (afterMs === 0) setImmediate(gone);
      else setTimeout(gone, afterMs);
    });
    socket.on('error', () => resolve());
  });
}

test('event streams and live pages left before they start leave no timer behind once the server closes', async () => {
  const before = timers();
  const s = await startTestServer({ adminToken: ADMIN, settings: { eventStreamHeartbeatMs: 60_000 } });
  const sb = await newSandbox(s);
  const stream = `/api/v1/groups/${sb.group_id}/events/stream`;
  const live = `/dashboard/groups/${sb.group_id}/events/live`;
  // Signed in as the dashboard's token link does: its session cookie.
  const signIn = await fetch(`${s.url}/dashboard?token=${ADMIN}`, { redirect: 'manual' });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  assert.match(cookie, /=/, 'the token link sets a session cookie');
  const opened = await fetch(s.url + live, { headers: { cookie } });
  assert.equal(opened.headers.get('content-type')?.startsWith('text/event-stream'), true, `the live page answers a stream: ${opened.status}`);
  await opened.body?.cancel();
  const leaving: Array<Promise<void>> = [];
  for (let i = 0; i < 40; i++) {
    const afterMs = i % 4; // at once, and 1–3 ms in: before and around the head
    leaving.push(leaveEarly(s.url, stream, { authorization: sb.keys.manage_webhooks! }, afterMs));
    leaving.push(leaveEarly(s.url, live, { cookie }, afterMs));
  }
  await Promise.all(leaving);
  await new Promise((r) => setTimeout(r, 300));
  await s.close();
  assert.ok(timers() <= before, `timers left after the server closed: ${timers()} (before it started: ${before})`);
});
