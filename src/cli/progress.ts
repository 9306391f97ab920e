// Progress bars for long commands (dev seed, clock advance with work due, report
// --output csv, invoice pdf of many lines): cli-progress on stderr, only when stderr is
// a terminal, never under --json (the caller passes json). A new label starts a new bar.
// cli-progress is loaded on the first bar only, so other runs do not pay for it.
import { createRequire } from 'node:module';
import type { Progress } from '../services/clock/chunks.js';
import type { SingleBar } from 'cli-progress';

export interface ProgressOptions {
  /** --json: machine output, no bar. */
  json?: boolean;
  stream?: NodeJS.WriteStream;
  /** Work smaller than this shows no bar (it is over before one would help). */
  minTotal?: number;
}

export function ttyProgress(opts: ProgressOptions = {}): Progress | undefined {
  const stream = opts.stream ?? process.stderr;
  if (opts.json || !stream.isTTY) return undefined;
  const minTotal = opts.minTotal ?? 1;
  let bar: SingleBar | undefined;
  let label: string | undefined;
  return (done, total, next) => {
    if (total < minTotal) return;
    if (!bar || next !== label) {
      bar?.stop();
      const { SingleBar: Bar, Presets } = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
      bar = new Bar(
        {
          stream,
          format: `${next} {bar} {percentage}% | {value}/{total} | {duration_formatted}`,
          hideCursor: true,
          etaBuffer: 50,
          // Redraw from update() too: some work runs in long synchronous stretches.
          synchronousUpdate: true,
        },
        Presets.shades_classic,
      );
      bar.start(total, done);
      label = next;
    } else {
      bar.setTotal(total);
      bar.update(done);
    }
    if (done >= total) {
      bar.stop();
      bar = undefined;
      label = undefined;
    }
  };
}
