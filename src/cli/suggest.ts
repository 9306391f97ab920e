// Command-line mistakes answered in two lines: what is wrong (with "did you mean" for a
// misspelled flag) and the command's usage line — not oclif's "Nonexistent flag" plus
// the whole help. oclif's parse errors that would print the help (unknown flag, missing
// or unexpected argument) are rewritten here; the command base throws the result.
import { stripVTControlCharacters } from 'node:util';
import { closest } from '../lib/closest.js';
import { usage, type UsageError } from './usage.js';

interface FlagDef {
  name?: string;
  exclusive?: string[];
  required?: boolean;
  aliases?: string[];
  char?: string;
  hidden?: boolean;
  /** Set on the shared --group flag: a default (PAYCTL_GROUP, the profile) can supply it. */
  profileGroup?: string;
}
interface ArgDef {
  name?: string;
  required?: boolean;
}
export interface CommandShape {
  id: string;
  bin: string;
  flags: Record<string, FlagDef>;
  args: Record<string, ArgDef>;
  /** Defaults that apply to this run (`group` → "ID, from FILE"), noted in the usage line. */
  defaults?: Record<string, string>;
}

/** The flag `typed` (without dashes) most likely meant, when one is close enough (src/lib/closest.ts). */
export const closestFlag = (typed: string, names: string[]): string | undefined => closest(typed, names);

/**
 * `payctl sale [--group <value>] --email <value> [FLAGS]`: the arguments, the required
 * flags, a flag that a default can supply (optional, with the default in force noted),
 * the rest summed up.
 */
export function usageLine(cmd: CommandShape): string {
  const words = [cmd.bin, ...cmd.id.split(':')];
  for (const [name, a] of Object.entries(cmd.args)) words.push(a.required ? name.toUpperCase() : `[${name.toUpperCase()}]`);
  const visible = Object.entries(cmd.flags).filter(([, f]) => !f.hidden);
  const done = new Set<string>();
  const notes: string[] = [];
  for (const [name, f] of visible) {
    if (f.profileGroup === 'required') {
      words.push(`[--${name} <value>]`);
      done.add(name);
      notes.push(cmd.defaults?.[name] ? `--${name} defaults to ${cmd.defaults[name]}` : `--${name}: none set, \`payctl config set ${name} …\` sets a default`);
      continue;
    }
    if (!f.required || done.has(name)) continue;
    // A required exclusive pair is one choice: (--amount <value> | --amount-cents <value>).
    const pair = [name, ...(f.exclusive ?? []).filter((x) => cmd.flags[x]?.required)];
    for (const x of pair) done.add(x);
    words.push(pair.length > 1 ? `(${pair.map((x) => `--${x} <value>`).join(' | ')})` : `--${name} <value>`);
  }
  if (visible.some(([name, f]) => !f.required && !done.has(name))) words.push('[FLAGS]');
  notes.push(`\`${[cmd.bin, ...cmd.id.split(':')].join(' ')} --help\` lists every flag`);
  return `Usage: ${words.join(' ')}   (${notes.join('; ')})`;
}

type ParseError = Error & { showHelp?: boolean; flags?: string[]; oclif?: { exit?: number } };

/**
 * A parse error that oclif would answer with the whole help, as one usage error:
 * the problem (and a suggestion) on the first line, the usage line below. `json`:
 * the first line only. Undefined for every other error.
 */
export function shortParseError(err: unknown, cmd: CommandShape): UsageError | undefined {
  const e = err as ParseError;
  if (!(err instanceof Error)) return undefined;
  // On a terminal oclif dims the flag names (ANSI codes around them): read the plain text.
  const message = stripVTControlCharacters(e.message);
  const missing = [...message.matchAll(/Missing required flag (\S+)/g)].map((m) => m[1]!);
  if (!e.showHelp && missing.length === 0) return undefined;
  let first: string;
  if (missing.length > 0) {
    // One entry per value: an exclusive pair (--amount, --amount-cents) is one missing value.
    const named: string[] = [];
    const done = new Set<string>();
    for (const name of missing) {
      if (done.has(name)) continue;
      const partners = ((cmd.flags[name] as { exclusive?: string[] } | undefined)?.exclusive ?? []).filter((x) => missing.includes(x));
      for (const x of [name, ...partners]) done.add(x);
      named.push(partners.length ? `--${name} (or ${partners.map((x) => `--${x}`).join(', ')})` : `--${name}`);
    }
    const file = cmd.flags.file ? ' (or give the whole body with --file)' : '';
    // oclif reports every failed check at once: keep the others (flags that cannot go together …).
    const others = message
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^Missing required flag|^The following errors? occurred|^See more help/.test(l));
    first = [...others, `missing required flag${named.length > 1 ? 's' : ''}: ${named.join(', ')}${file}`].join('\n');
  } else if (Array.isArray(e.flags) && e.flags.length > 0) {
    const names = Object.entries(cmd.flags).flatMap(([name, f]) => (f.hidden ? [] : [name, ...(f.aliases ?? [])]));
    first = e.flags
      .map((raw) => {
        const typed = raw.replace(/^-+/, '').replace(/=.*$/, '');
        const guess = closestFlag(typed, names);
        return `unknown flag --${typed}${guess ? `: did you mean --${guess}?` : ''}`;
      })
      .join('; ');
  } else {
    first = message.replace(/\nSee more help with --help$/, '');
  }
  const error = usage(`${first}\n${usageLine(cmd)}`);
  (error as UsageError & { jsonMessage?: string }).jsonMessage = first.replace(/\s*\n\s*/g, ' ');
  return error;
}
