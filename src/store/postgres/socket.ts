// The store's connections to PostgreSQL write once per tick. The pg driver writes each
// protocol message of a statement (parse, bind, describe, execute, sync) with a socket
// write of its own, and an idle socket sends each at once: a system call per message,
// which was a quarter of a loaded server's CPU (BENCHMARKS.md, "More servers, more
// sales"). Corked until the end of the tick, the messages of every statement sent in
// that tick leave in one `writev` — with pipelining (db.ts), a sale's whole COMMIT trip.
import net from 'node:net';

/** pg's `stream` option: a new socket per connection, corked from its first write in a tick to the tick's end. */
export function tickCorkedStream(): net.Socket {
  const socket = new net.Socket();
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  }) as net.Socket['write'];
  return socket;
}
