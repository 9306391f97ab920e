// A signup entry being filled in: a partial, unvalidated object (what the wizard holds
// and what a saved draft file contains), addressed by paths in the same spelling as the
// API's error paths (`business.representatives.0.first_name`). Every change returns a
// copy, so a reducer can hold drafts as values.

/** A partial, unvalidated signup entry (what a saved draft file holds). */
export type Draft = Record<string, unknown>;
/** Keys from the root: strings for object fields, numbers for array indexes. */
export type Path = (string | number)[];

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function getPath(obj: unknown, path: Path): unknown {
  let cur = obj;
  for (const k of path) {
    if (Array.isArray(cur) && typeof k === 'number') cur = cur[k];
    else if (isRecord(cur)) cur = cur[String(k)];
    else return undefined;
  }
  return cur;
}

/** A copy of the draft with `value` at `path` (objects and arrays created on the way). */
export function setPath(draft: Draft, path: Path, value: unknown): Draft {
  const next = structuredClone(draft);
  let cur: Record<string | number, unknown> = next;
  path.forEach((k, i) => {
    if (i === path.length - 1) {
      cur[k] = value;
      return;
    }
    const wantArray = typeof path[i + 1] === 'number';
    const existing = cur[k];
    if (wantArray ? !Array.isArray(existing) : !isRecord(existing)) cur[k] = wantArray ? [] : {};
    cur = cur[k] as Record<string | number, unknown>;
  });
  return next;
}

/** A copy of the draft without the value at `path` (an array element is spliced out). */
export function unsetPath(draft: Draft, path: Path): Draft {
  if (getPath(draft, path) === undefined) return draft;
  const next = structuredClone(draft);
  const parent = getPath(next, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (isRecord(parent)) delete parent[String(last)];
  return next;
}

/** `a.b` is under `a` (and under itself); `ab` is not under `a`. */
export const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`);
