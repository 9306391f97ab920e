// Who holds a TCP port, for the message of a `payctl serve` whose port is taken: a
// payctl server of this database (its server.json), else — on Linux, best effort — the
// process whose socket listens there (/proc/net/tcp* gives the socket's inode, /proc/PID/fd
// the process holding it). Anything unreadable simply leaves the owner unknown.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** "pid 1234: node bin/run.js serve", or undefined when it cannot be told. */
export function portOwner(port: number): string | undefined {
  try {
    const inodes = new Set<string>();
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text: string;
      try {
        text = readFileSync(table, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        const local = cols[1];
        // State 0A is LISTEN; the local address ends in :PORT in hex.
        if (local && cols[3] === '0A' && parseInt(local.split(':')[1] ?? '', 16) === port && cols[9]) inodes.add(cols[9]);
      }
    }
    if (inodes.size === 0) return undefined;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        let link: string;
        try {
          link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          continue;
        }
        const m = /^socket:\[(\d+)\]$/.exec(link);
        if (m && inodes.has(m[1]!)) {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
          return `pid ${pid}${cmd ? `: ${cmd.length > 120 ? `${cmd.slice(0, 119)}…` : cmd}` : ''}`;
        }
      }
    }
  } catch {
    // Not Linux, or /proc not readable: the owner stays unknown.
  }
  return undefined;
}
