// The runnable examples of the documents: ```sh blocks (docs/README.md, "Examples are
// tested"). Fences follow CommonMark: a block closes at a fence at least as long as the one
// that opened it, so a longer fence can show a ```sh block without it being run.
import { readdirSync } from 'node:fs';
import path from 'node:path';

export interface DocExample {
  /** 1-based line of the block's first line in its file. */
  line: number;
  script: string;
  /** The exit code the block is documented to end with (`exit=N`), else 0. */
  exit: number;
  /** `server`: the block needs a running `payctl serve` (PAYCTL_API_URL names it). */
  server: boolean;
}

/** README.md and every docs/*.md, relative to the repository root, in a stable order. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

export function docExamples(markdown: string): DocExample[] {
  const lines = markdown.split('\n');
  const found: DocExample[] = [];
  let open: { fence: string; info: string[]; start: number; body: string[] } | undefined;
  lines.forEach((text, i) => {
    if (open) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
      if (close && close[1]![0] === open.fence[0] && close[1]!.length >= open.fence.length) {
        if (open.info[0] === 'sh') {
          const exit = open.info.find((w) => w.startsWith('exit='));
          found.push({
            line: open.start,
            script: open.body.join('\n'),
            exit: exit ? Number(exit.slice('exit='.length)) : 0,
            server: open.info.includes('server'),
          });
        }
        open = undefined;
      } else open.body.push(text);
      return;
    }
    const m = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(text);
    if (m) open = { fence: m[1]!, info: m[2]!.trim().split(/\s+/).filter(Boolean), start: i + 2, body: [] };
  });
  return found;
}
