// "Did you mean …?": the known name a mistyped one most likely meant, for flags and
// commands on the command line and query parameters of the API, ranked the same way
// everywhere. A name the typed text begins (`--tok` → `--token`) comes before a name a
// few edits away (`--tax`): people cut names short more often than they misspell them.

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The most edits a guess may be from what was typed: two for ordinary names, a third for long ones. */
const maxEdits = (typed: string): number => (typed.length >= 9 ? 3 : 2);

/**
 * The name in `names` that `typed` most likely meant, or undefined when none is close:
 * names that start with `typed` (at least two characters) first, the shortest of them;
 * else the fewest edits away, within a bound. Ties keep the order of `names`.
 */
export function closest(typed: string, names: readonly string[]): string | undefined {
  const t = typed.toLowerCase();
  if (t.length >= 2) {
    const prefixed = names.filter((n) => n.toLowerCase().startsWith(t));
    if (prefixed.length > 0) return prefixed.reduce((a, b) => (b.length < a.length ? b : a));
  }
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(t, name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= maxEdits(t) ? best.name : undefined;
}
