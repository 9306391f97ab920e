// A real HTTP receiver for webhook tests on a real port: it records every request (raw
// body and headers) and answers with what the test says. Tests await a number of
// requests (an event, never a sleep).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  path: string;
}

export interface Answer {
  status: number;
  body?: string;
}

export type Answerer = (r: Received, n: number) => Answer | Promise<Answer>;

export interface Receiver {
  url: string;
  received: Received[];
  /** Change how later requests are answered. */
  answer(fn: Answerer): void;
  /** Resolves once `n` requests (in all) have arrived. */
  waitFor(n: number): Promise<void>;
  /** Resolves once `done(received)` holds (checked as each request arrives). */
  waitUntil(done: (received: Received[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answerer: Answerer = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<{ done: (r: Received[]) => boolean; resolve: () => void }> = [];
  let answer = answerer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const r: Received = { headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' };
      received.push(r);
      for (const w of waiters.splice(0)) {
        if (w.done(received)) w.resolve();
        else waiters.push(w);
      }
      void Promise.resolve(answer(r, received.length)).then((a) => {
        res.writeHead(a.status, { 'content-type': 'text/plain' });
        res.end(a.body ?? '');
      });
    });
  });
  const waitUntil = (done: (r: Received[]) => boolean) =>
    done(received) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ done, resolve }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: (fn) => (answer = fn),
    waitFor: (n) => waitUntil((r) => r.length >= n),
    waitUntil,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
