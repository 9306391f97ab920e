// The one mapping from API field paths to a command's flags, so that a refused body is
// reported in what the user typed (`--state: must be 2 or 3 characters`, not
// `billing_address.subdivision: …`). A flag declares the field(s) it sets with
// `setsField` when its name is not the field's (--state → billing_address.subdivision,
// --amount → amounts.requested_amount); a flag named like its field (--first-name →
// first_name, at any depth) needs no declaration. The command base applies it to every
// command's validation errors (not under --file, where the user typed the API's names).
import type { FieldProblem } from '../../errors.js';

interface FieldMark {
  apiFields?: string[];
  hidden?: boolean;
}

/** Mark `flag` as setting the API field(s) `paths` (dotted, as error fields name them); returns the flag. */
export function setsField<T extends object>(flag: T, ...paths: string[]): T {
  (flag as FieldMark).apiFields = paths;
  return flag;
}

type Flags = Record<string, unknown>;

const segments = (path: string) => path.split('.').filter((s) => !/^\d+$/.test(s));

/** The flags that set `path` (first the one declared first); empty when none does. */
export function flagsForField(path: string, flags: Flags): string[] {
  let best: { len: number; names: string[] } | undefined;
  const entries = Object.entries(flags) as Array<[string, FieldMark]>;
  for (const [name, def] of entries) {
    for (const f of def.apiFields ?? []) {
      if (path !== f && !path.startsWith(`${f}.`)) continue;
      if (!best || f.length > best.len) best = { len: f.length, names: [name] };
      else if (f.length === best.len && !best.names.includes(name)) best.names.push(name);
    }
  }
  if (best) return best.names;
  // A flag named like the field's last name (first_name → --first-name) and declaring no other field.
  // processor_id → --processor and customer_ids → --customer as well.
  const last = segments(path).pop()?.replace(/_/g, '-') ?? '';
  const names = [last, last.replace(/-ids?$/, '')];
  const named = entries.find(([name, def]) => names.includes(name) && !def.apiFields);
  return named ? [named[0]] : [];
}

/** The flags that set fields under `path` (billing_address → --line1, --state …). */
function flagsUnder(path: string, flags: Flags): string[] {
  return (Object.entries(flags) as Array<[string, FieldMark]>)
    .filter(([, def]) => !def.hidden && def.apiFields?.length && def.apiFields.every((f) => f.startsWith(`${path}.`)))
    .map(([name]) => name);
}

export interface FlagProblem {
  /** `--state`, or the API path when no flag sets it (then with the flags under it, if any). */
  label: string;
  message: string;
}

/**
 * Validation problems in terms of the command's flags: each path becomes the flag that
 * sets it; a rule on a flag that was not given reads "is required" (the schema's message
 * for a missing value is about a value); one line per flag and message.
 */
export function problemsInFlags(fields: FieldProblem[], flags: Flags, given: Record<string, unknown>): FlagProblem[] {
  const out: FlagProblem[] = [];
  const seen = new Set<string>();
  const requiredOnce = new Set<string>();
  for (const f of fields) {
    const names = flagsForField(f.path, flags);
    let label: string;
    let message = f.message;
    if (names.length > 0) {
      label = `--${names[0]}`;
      if (names.every((n) => given[n] === undefined)) {
        // One "is required" per flag, whatever the fields behind it said.
        if (requiredOnce.has(label)) continue;
        requiredOnce.add(label);
        // The schema's words for a missing value are about a value ("must be a string"); a condition stays.
        if (!/^is required (when|unless|if|with|for)\b/.test(message)) message = 'is required';
      }
    } else {
      const under = flagsUnder(f.path, flags);
      label = under.length > 0 ? `${f.path} (${under.map((n) => `--${n}`).join(', ')})` : f.path;
    }
    // Fields the message names ("unless bank_account_id is given") are flags too.
    message = message.replace(/\b[a-z][a-z0-9]*(?:[._][a-z0-9]+)+\b/g, (word) => {
      const flag = flagsForField(word, flags)[0];
      return flag ? `--${flag}` : word;
    });
    const key = `${label}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ label, message });
  }
  return out;
}

/**
 * `flags` with the named ones required (copies: shared flag definitions stay optional
 * for the commands that share them). A required flag of an exclusive pair (--amount,
 * --amount-cents) is satisfied by either; with --file, by the file (see the command base).
 */
export function requiredFlags<T extends Record<string, object>>(flags: T, names: Array<keyof T & string>): T {
  const out: Record<string, object> = { ...flags };
  for (const name of names) {
    if (!out[name]) throw new Error(`requiredFlags: no flag --${name}`);
    out[name] = { ...out[name], required: true };
  }
  return out as T;
}
