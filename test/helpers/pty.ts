// Run the real payctl binary on a pseudo-terminal (util-linux `script`, part of every
// Debian system), for what only happens on a terminal: progress bars, colour, prompts.
// Everything the command writes (stdout and stderr) arrives on the one terminal.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';
import { childEnv } from './cli.js';

export interface PtyResult {
  code: number;
  output: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface PtyAnswer {
  when: RegExp;
  input: string;
}

/**
 * `unset`: environment variables the command must not inherit (e.g. the tests' FORCE_COLOR).
 * `answer`: typed once its `when` is on screen; several are typed in turn, each after the
 * previous one's `when` (e.g. a key echoed back, which shows the screen reads keys).
 */
const PTY_LIMIT_MS = 60_000;

export function runInPty(
  args: string[],
  opts: { db?: string; env?: Record<string, string>; unset?: string[]; answer?: PtyAnswer | PtyAnswer[]; cols?: number; rows?: number } = {},
): Promise<PtyResult> {
  const answers = opts.answer === undefined ? [] : Array.isArray(opts.answer) ? [...opts.answer] : [opts.answer];
  // The terminal gets a size (a new pseudo-terminal has 0 columns: Ink would wrap every character).
  const cols = opts.cols ?? 100;
  const command = `stty cols ${cols} rows ${opts.rows ?? 40} 2>/dev/null; exec ${[process.execPath, path.join(packageRoot, 'bin/run.js'), ...args].map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const env = childEnv(args, opts.db, opts.env, { ...process.env, TERM: 'xterm-256color', COLUMNS: String(cols) });
    for (const name of opts.unset ?? []) delete env[name];
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let seen = 0;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      // Typed once the prompt is on screen, as a person would; the next one is looked for after it.
      const next = answers[0];
      const m = next?.when.exec(output.slice(seen));
      if (next && m) {
        answers.shift();
        seen += m.index + m[0].length;
        child.stdin.write(next.input);
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // Bounded: a screen that never shows what is awaited fails with what it did show.
    const limit = setTimeout(() => {
      output += `\n[runInPty: no exit within ${PTY_LIMIT_MS} ms; still awaited: ${answers.map((a) => a.when).join(', ') || 'exit'}]`;
      child.kill('SIGKILL');
    }, PTY_LIMIT_MS);
    child.on('error', (err) => (clearTimeout(limit), reject(err)));
    child.on('close', (code) => (clearTimeout(limit), resolve({ code: code ?? -1, output })));
    if (answers.length === 0) child.stdin.end();
  });
}
