// The store's connections to PostgreSQL write once per tick. The pg driver writes each
// protocol message of a statement (parse, bind, describe, execute, sync) with a socket
// write of its own and uncorks after each statement, and an idle socket sends each at
// once: a system call per statement (or per message), which was a quarter of a loaded
// server's CPU (docs/benchmarks/postgresql.md, "More servers, more sales"). Corked until the end of the
// tick, the messages of every statement sent in that tick leave in one `writev` — with
// pipelining (tx.ts), a sale's whole trip before its COMMIT.
import net from 'node:net';

/**
 * pg's `stream` option: a new socket per connection, corked from its first write in a
 * tick to the tick's end. The corking `write` is put on the socket again each time it
 * connects: `net.Socket#connect` resets an instance's own `write` to the prototype's
 * (Node undoes a write-after-end guard there), which silently dropped the first version
 * of this wrapper — every statement went out in its own `writev`
 * (test/postgres/round-trips.pgtest.ts counts them).
 */
export function tickCorkedStream(): net.Socket {
  const socket = new net.Socket();
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const corkingWrite = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  }) as net.Socket['write'];
  const connect = socket.connect.bind(socket) as (...args: unknown[]) => net.Socket;
  socket.connect = ((...args: unknown[]) => {
    const connected = connect(...args);
    socket.write = corkingWrite;
    return connected;
  }) as net.Socket['connect'];
  socket.write = corkingWrite;
  return socket;
}
