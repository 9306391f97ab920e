// The runnable examples of the documents: ```sh blocks (docs/README.md, "Examples are
// tested"). Fences follow CommonMark: a block closes at a fence at least as long as the one
// that opened it, so a longer fence can show a ```sh block without it being run.
// A command a reader would type is never hidden in another block (commandsOutsideSh).
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

interface Block {
  /** The info string's words: the language first (none for a bare fence). */
  info: string[];
  /** 1-based line of the block's first line in its file. */
  start: number;
  body: string[];
}

/** The fenced blocks of a document, outermost only (CommonMark fences). */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: (Block & { fence: string }) | undefined;
  markdown.split('\n').forEach((text, i) => {
    if (open) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
      if (close && close[1]![0] === open.fence[0] && close[1]!.length >= open.fence.length) {
        blocks.push(open);
        open = undefined;
      } else open.body.push(text);
      return;
    }
    const m = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(text);
    if (m) open = { fence: m[1]!, info: m[2]!.trim().split(/\s+/).filter(Boolean), start: i + 2, body: [] };
  });
  return blocks;
}

/** ```sh blocks run, but ```sh no-run: a command that cannot run here (docs/README.md). */
const runs = (b: Block): boolean => b.info[0] === 'sh' && !b.info.includes('no-run');

export function docExamples(markdown: string): DocExample[] {
  return fencedBlocks(markdown)
    .filter(runs)
    .map((b) => {
      const exit = b.info.find((w) => w.startsWith('exit='));
      return {
        line: b.start,
        script: b.body.join('\n'),
        exit: exit ? Number(exit.slice('exit='.length)) : 0,
        server: b.info.includes('server'),
      };
    });
}

/**
 * The ```sh no-run blocks, each with its commands a logical line each (continuations
 * joined, comments and blank lines left out) and the 1-based line where it starts: the
 * docs test holds every such block to a reason it cannot run here.
 */
export function noRunBlocks(markdown: string): { line: number; commands: string[] }[] {
  return fencedBlocks(markdown)
    .filter((b) => b.info[0] === 'sh' && b.info.includes('no-run'))
    .map((b) => {
      const commands: string[] = [];
      for (let i = 0; i < b.body.length; i++) {
        let cmd = b.body[i]!;
        while (/\\\s*$/.test(cmd) && i + 1 < b.body.length) cmd = `${cmd.replace(/\\\s*$/, ' ')}${b.body[++i]!.trim()}`;
        const t = cmd.trim();
        if (t && !t.startsWith('#')) commands.push(t);
      }
      return { line: b.start, commands };
    });
}

/** Blocks that show text (output, a transcript, a sketch): any line of them is checked. */
const TEXT_BLOCKS = new Set([undefined, 'text', 'console', 'shell', 'bash', 'plain', 'txt']);

/**
 * The lines outside ```sh blocks that look like a command a reader would type (`payctl`
 * followed by one of its commands, `$ `, `curl `, `npx payctl`, `npm `, `node `), as
 * 1-based line numbers: such a line belongs in a ```sh block, run by the docs test. In
 * text-like blocks every line counts; in another language (json, yaml, ts) only its first.
 * `commands` names payctl's top-level commands and topics, so output such as
 * "payctl serving http://…" is not taken for one.
 */
export function commandsOutsideSh(markdown: string, commands: ReadonlySet<string>): number[] {
  const looksTyped = (line: string): boolean => {
    const t = line.trim();
    if (/^(\$ |curl |npx payctl\b|npm |node )/.test(t)) return true;
    const m = /^payctl ([a-z][\w-]*)/.exec(t);
    return m !== null && commands.has(m[1]!);
  };
  const found: number[] = [];
  for (const b of fencedBlocks(markdown)) {
    if (b.info[0] === 'sh') continue;
    const lines = TEXT_BLOCKS.has(b.info[0]) ? b.body : b.body.slice(0, 1);
    lines.forEach((line, i) => looksTyped(line) && found.push(b.start + i));
  }
  return found;
}

/** payctl's top-level commands and topics: the entries of commands/. */
export function payctlCommands(root: string): Set<string> {
  return new Set(readdirSync(path.join(root, 'commands')).map((f) => f.replace(/\.ts$/, '')));
}
