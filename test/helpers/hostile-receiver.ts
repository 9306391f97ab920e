// Hostile webhook receivers for tests: a real TCP server on 127.0.0.1 port 0 that reads
// each request whole (head and Content-Length body) and then behaves as the test says —
// hangs, trickles, answers endlessly, closes mid-answer, redirects. It counts the
// requests it holds (received, connection still open) and the most it held at once.
import net, { type AddressInfo } from 'node:net';

export type Behaviour = (socket: net.Socket) => void | Promise<void>;

export interface HostileReceiver {
  url: string;
  /** Requests received in all. */
  received: number;
  /** Requests whose connection is still open. */
  held: number;
  /** The most requests held at once. */
  maxHeld: number;
  /** Resolves once `n` requests (in all) have arrived. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHostile(behave: Behaviour): Promise<HostileReceiver> {
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const sockets = new Set<net.Socket>();
  const rx: HostileReceiver = {
    url: '',
    received: 0,
    held: 0,
    maxHeld: 0,
    waitFor: (n) => (rx.received >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let holding = false;
    socket.on('close', () => {
      sockets.delete(socket);
      if (holding) rx.held--;
    });
    socket.on('data', (d: Buffer) => {
      if (holding) return; // one request per connection is all these receivers read
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.toString('latin1', 0, end))?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      holding = true;
      rx.received++;
      rx.held++;
      rx.maxHeld = Math.max(rx.maxHeld, rx.held);
      for (const w of waiters.splice(0)) (rx.received >= w.n ? w.resolve() : waiters.push(w));
      void behave(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rx.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return rx;
}

/** Write `piece` again and again, as fast as the peer reads, until the connection closes. */
export function endlessly(socket: net.Socket, start: string, piece: string): void {
  // ~16 KiB a write, one write a turn of the event loop (the client may share this process).
  const data = Buffer.from(piece.repeat(Math.ceil(16384 / piece.length)));
  const more = () => {
    if (socket.destroyed) return;
    if (socket.write(data)) setImmediate(more);
    else socket.once('drain', more);
  };
  socket.write(start);
  more();
}

/** The hostile behaviours a receiver can have. */
export const behaviours = {
  /** Never answers. */
  hang: (): void => undefined,
  /** A valid answer, one byte a second. */
  trickle: (socket: net.Socket): void => {
    const answer = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    let i = 0;
    const next = () => {
      if (socket.destroyed || i >= answer.length) return clearInterval(timer);
      socket.write(answer.subarray(i, ++i));
    };
    const timer = setInterval(next, 1000);
    next();
    socket.on('close', () => clearInterval(timer));
  },
  /** A status line and then headers without end. */
  endlessHeaders: (socket: net.Socket): void => endlessly(socket, 'HTTP/1.1 200 OK\r\n', 'X-More: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n'),
  /** 200, chunked, the last chunk, then one trailer line without end. */
  endlessTrailers: (socket: net.Socket): void =>
    endlessly(socket, 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Trailer: ', 'a'.repeat(1024)),
  /** 200 with a 100 MiB body, sent as fast as it is read. */
  hugeBody: (socket: net.Socket): void => endlessly(socket, `HTTP/1.1 200 OK\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`, 'x'.repeat(16 * 1024)),
  /** A head promising 100 bytes, 10 of them, then the connection closes. */
  closeMidAnswer: (socket: net.Socket): void => {
    socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789');
  },
  /** A redirect to a receiver that would answer 200. */
  redirect: (socket: net.Socket): void => {
    socket.end('HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:9/elsewhere\r\nContent-Length: 0\r\n\r\n');
  },
};
