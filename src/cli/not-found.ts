// payctl's answer to a command it does not know (oclif's command_not_found hook, in place
// of @oclif/plugin-not-found's): "did you mean sale?" always — in a script or a pipe too,
// where the plugin only said "not a payctl command" — and on a terminal the question
// "Did you mean sale? (Y/n)", whose yes runs that command with the rest of the line.
// The guess is ranked as flag guesses are (src/lib/closest.ts), word by word: a typed
// `subscrption show ID` is compared with `subscription show` on its first two words.
import { createInterface } from 'node:readline/promises';
import { toConfiguredId, type Hook, type Interfaces } from '@oclif/core';
import { closest } from '../lib/closest.js';

/** How long the question waits for an answer before taking it as no. */
const ANSWER_MS = 10_000;

/** The command `id` (words joined by ':') most likely meant, and the typed words left over for its arguments. */
export function guessCommand(id: string, commandIds: readonly string[]): { id: string; rest: string[] } | undefined {
  const typed = id.split(':');
  // Each command compared with as many typed words as it has; the typed text of a length is its key.
  const byTyped = new Map<string, string[]>();
  for (const c of commandIds) {
    const n = c.split(':').length;
    if (n > typed.length) continue;
    const key = typed.slice(0, n).join(':');
    byTyped.set(key, [...(byTyped.get(key) ?? []), c]);
  }
  // The longest typed prefix that is close to a command wins (`webhook fault ad` → webhook:fault:add).
  for (const [key, ids] of [...byTyped].sort((a, b) => b[0].split(':').length - a[0].split(':').length)) {
    const guess = closest(key, ids);
    if (guess) return { id: guess, rest: typed.slice(key.split(':').length) };
  }
  return undefined;
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const timer = setTimeout(() => rl.close(), ANSWER_MS);
  try {
    const answer = await rl.question(question);
    return /^\s*(y|yes)?\s*$/i.test(answer);
  } catch {
    return false; // closed (timed out, or Ctrl+D)
  } finally {
    clearTimeout(timer);
    rl.close();
  }
}

function visibleIds(config: Interfaces.Config): string[] {
  const hidden = new Set(config.commands.filter((c) => c.hidden).map((c) => c.id));
  return [...config.commandIDs, ...config.commands.flatMap((c) => c.aliases)].filter((id) => !hidden.has(id));
}

const hook: Hook.CommandNotFound = async function (opts) {
  const { config } = opts;
  const topic = config.findTopic(opts.id.split(':')[0]!) ? ` ${opts.id.split(':')[0]}` : '';
  const help = `Run ${config.bin} help${topic} for a list of available commands.`;
  const typed = toConfiguredId(opts.id, config);
  const guess = guessCommand(opts.id, visibleIds(config));
  if (!guess) return this.error(`${typed} is not a ${config.bin} command. ${help}`, { exit: 127 });
  const readable = toConfiguredId(guess.id, config);
  if (process.stdin.isTTY && process.stderr.isTTY && (await confirm(`${typed} is not a ${config.bin} command. Did you mean ${readable}? (Y/n) `))) {
    return config.runCommand(guess.id, [...guess.rest, ...(opts.argv ?? [])]);
  }
  this.error(`${typed} is not a ${config.bin} command: did you mean ${readable}? ${help}`, { exit: 127 });
};

export default hook;
