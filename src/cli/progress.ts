// A progress line on stderr, only on a TTY (pipes and CI get nothing).
import type { Progress } from '../services/clock/scheduler.js';

export function ttyProgress(stream: NodeJS.WriteStream = process.stderr): Progress | undefined {
  if (!stream.isTTY) return undefined;
  let last = 0;
  return (done, total, label) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
    const width = 30;
    const filled = Math.round((pct / 100) * width);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${pct}%`);
    if (done >= total) stream.write('\n');
  };
}
