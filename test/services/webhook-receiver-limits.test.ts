// Every bound of a receiver's answer, at the delivery client (src/lib/http1.ts), against real
// hostile TCP receivers on 127.0.0.1: each answer that breaks a bound ends the attempt
// with an error naming the bound (status and kept body when there were some), and the
// client closes the connection — an endless answer is read up to the bound, no further.
// (test/http/webhook-isolation.test.ts: the same receivers through `payctl serve`'s
// delivery loop, recorded as failed attempts without delaying other endpoints.)
import '../helpers/env.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { post, type PostOptions } from '../../src/lib/http1.js';
import { RECEIVER_LIMITS } from '../../src/domain/webhooks.js';
import { behaviours, endlessly, startHostile, type Behaviour } from '../helpers/hostile-receiver.js';

const opts: PostOptions = { limits: RECEIVER_LIMITS, timeoutMs: 1_500, keepBytes: RECEIVER_LIMITS.keptBodyBytes, bodyMaxBytes: RECEIVER_LIMITS.bodyBytes };

/** POST once to a receiver that behaves so; the result and how many bytes the receiver got to send before the client closed. */
async function against(behave: Behaviour, o: PostOptions = opts) {
  let closed!: () => void;
  const gone = new Promise<void>((r) => (closed = r));
  const rx = await startHostile((socket) => {
    socket.on('close', () => closed());
    return behave(socket);
  });
  try {
    const r = await post(rx.url, '{}', {}, { ...o, pool: `limits-${Math.random()}` });
    await gone; // the client let go of the connection
    return r;
  } finally {
    await rx.close();
  }
}

test('time: a receiver that never answers, one that trickles a byte a second, a TLS handshake that never ends', async () => {
  assert.deepEqual(await against(behaviours.hang), { body: null, error: 'timed out after 1500 ms waiting for the answer' });
  assert.deepEqual(await against(behaviours.trickle), { body: null, error: 'timed out after 1500 ms reading the status line and headers' });
  // Connecting is bounded on its own: a listener that accepts and never speaks TLS.
  const silent = net.createServer((s) => s.on('error', () => undefined));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`;
    assert.deepEqual(await post(url, '{}', {}, { ...opts, connectTimeoutMs: 300 }), { body: null, error: 'connect timed out after 300 ms' });
  } finally {
    silent.close();
  }
});

test('the head: status line, header lines, header bytes, interim heads without end', async () => {
  assert.deepEqual(await against((s) => endlessly(s, 'HTTP/1.1 200 ', 'a'.repeat(512))), { body: null, error: 'receiver limit: the status line is over 1 KiB' });
  assert.deepEqual(await against(behaviours.endlessHeaders), { body: null, error: 'receiver limit: over 100 header lines' });
  assert.deepEqual(await against((s) => endlessly(s, 'HTTP/1.1 200 OK\r\nX-Long: ', 'b'.repeat(1024))), {
    body: null,
    error: 'receiver limit: the head (status line and headers) is over 16 KiB',
  });
  assert.deepEqual(await against((s) => endlessly(s, '', 'HTTP/1.1 100 Continue\r\n\r\n')), {
    body: null,
    error: 'receiver limit: the head (status line and headers) is over 16 KiB',
  });
});

test('the body and its framing: huge bodies, endless chunks, an endless chunk-size line, endless trailers', async () => {
  const huge = await against(behaviours.hugeBody);
  assert.equal(huge.status, 200);
  assert.equal(huge.body, 'x'.repeat(1024), 'the first 1 KiB is kept');
  assert.equal(huge.error, 'receiver limit: the body is over 64 KiB (not read further)');
  const closeDelimited = await against((s) => endlessly(s, 'HTTP/1.0 200 OK\r\n\r\n', 'z'.repeat(4096)));
  assert.equal(closeDelimited.error, 'receiver limit: the body is over 64 KiB (not read further)');
  // Tiny chunks: the framing counts, so a byte of body per 6 on the wire still stops at the bound.
  const tiny = await against((s) => endlessly(s, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', '1\r\na\r\n'));
  assert.equal(tiny.error, 'receiver limit: the body is over 64 KiB (not read further)');
  assert.equal(tiny.body, 'a'.repeat(1024));
  const sizeLine = await against((s) => endlessly(s, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n', 'f'.repeat(256)));
  assert.deepEqual(sizeLine, { status: 200, body: 'ok', error: 'receiver limit: a chunk-size line is over 1 KiB' });
  assert.deepEqual(await against(behaviours.endlessTrailers), { status: 200, body: 'ok', error: 'receiver limit: the trailers are over 16 KiB' });
  assert.deepEqual(await against((s) => endlessly(s, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n', 'X-T: 1\r\n')), {
    status: 200,
    body: '',
    error: 'receiver limit: over 100 trailer lines',
  });
  // Bounded trailers are fine.
  assert.deepEqual(await against((s) => void s.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\nok\r\n0\r\nX-T: 1\r\n\r\n')), {
    status: 200,
    body: 'ok',
  });
});

test('a receiver that closes mid-answer; a redirect is an answer like any other (the delivery does not follow it)', async () => {
  assert.deepEqual(await against(behaviours.closeMidAnswer), {
    status: 200,
    body: '0123456789',
    error: 'ECONNRESET: the connection closed before the answer was complete',
  });
  assert.deepEqual(await against(behaviours.redirect), { status: 307, body: '' });
});
