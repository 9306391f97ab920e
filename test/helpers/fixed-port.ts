// Ports for servers a test stops and starts again on the same port (the TCP proxy that
// cuts the store, a PostgreSQL cluster crashed and restarted). A port the kernel handed
// out for listen(0) comes from the ephemeral range, which is also where every outgoing
// connection of every process on the machine takes its local port: once the server is
// stopped, another test's connection can take that port, and the restart fails with
// EADDRINUSE — a test failing now and then for nothing it tests. These ports are drawn
// below the ephemeral range, which outgoing connections never use.
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** The lowest port the kernel hands out for outgoing connections (Linux: ip_local_port_range; 32768 elsewhere). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

/** Listen on `port` at 127.0.0.1; rejects with the listen error. */
export function listenOn(server: net.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => reject(err);
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      resolve();
    });
  });
}

/**
 * `server` listening on a port below the ephemeral range, tried at random until one is
 * free (another listener may hold one); returns the port.
 */
export async function listenOnFixedPort(server: net.Server): Promise<number> {
  const low = 1024 + 8192;
  const high = ephemeralLow();
  for (let tries = 0; ; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    try {
      await listenOn(server, port);
      return port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 100) throw err;
    }
  }
}

/** A port below the ephemeral range that nothing listens on now (for a server another process starts, e.g. PostgreSQL). */
export async function fixedPort(): Promise<number> {
  const probe = net.createServer();
  const port = await listenOnFixedPort(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
