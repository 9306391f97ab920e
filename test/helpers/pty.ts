// Run the real payctl binary on a pseudo-terminal (util-linux `script`, part of every
// Debian system), for what only happens on a terminal: progress bars, colour, prompts.
// Everything the command writes (stdout and stderr) arrives on the one terminal.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../src/lib/paths.js';

export interface PtyResult {
  code: number;
  output: string;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function runInPty(args: string[], opts: { db?: string; env?: Record<string, string>; answer?: { when: RegExp; input: string } } = {}): Promise<PtyResult> {
  const command = [process.execPath, path.join(packageRoot, 'bin/run.js'), ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, TERM: 'xterm-256color', COLUMNS: '100', ...(opts.db ? { PAYCTL_DB: opts.db } : {}), ...(opts.env ?? {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      // Typed once the prompt is on screen, as a person would.
      if (opts.answer && !answered && opts.answer.when.test(output)) {
        answered = true;
        child.stdin.write(opts.answer.input);
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
    if (!opts.answer) child.stdin.end();
  });
}
