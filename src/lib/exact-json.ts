// JSON with exact integers at any size. Sums of amounts may pass 2^53 (docs/decisions.md
// #amounts): they are bigints in memory, and JSON.stringify cannot write a bigint nor
// JSON.parse read a literal beyond 2^53 without rounding it. `stringifyJson` writes a
// bigint as a bare integer literal; `parseJson` reads an integer literal beyond the
// safe range as a bigint. Everything else is JSON.stringify / JSON.parse unchanged (and
// as fast: the bigint paths only run when there is one).

// A string no JSON text produced from our values holds (NUL plus a per-process random
// tag): a bigint becomes it + digits, and the quoted marker is then replaced by the bare
// digits.
const TAG = Math.random().toString(36).slice(2, 10);
const MARK = `\u0000exact-int-${TAG}:`;
const MARKED = new RegExp(`"\\\\u0000exact-int-${TAG}:(-?\\d+)"`, 'g');

const replacer = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? `${MARK}${v.toString()}` : v);

/** JSON.stringify, with bigints written as exact integer literals. */
export function stringifyJson(value: unknown, space?: number): string {
  try {
    // The common case costs nothing extra: JSON.stringify refuses a bigint with a TypeError.
    return JSON.stringify(value, null, space);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/i.test(err.message)) throw err;
  }
  return JSON.stringify(value, replacer, space).replace(MARKED, '$1');
}

/** Whether a value holds a bigint anywhere (for writers that can skip the exact path). */
export function holdsBigint(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (holdsBigint(v)) return true;
  return false;
}

// Integer literals of 16 or more digits outside strings: the only ones that may not be safe.
const LONG_INT = /-?\d{16,}(?![.eE\d])/y;

/** JSON.parse, with integer literals beyond 2^53 read as bigints (exact). */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  let out = '';
  let last = 0;
  let marked = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      // Only at the start of a number (not inside one).
      const prev = i > 0 ? text.charCodeAt(i - 1) : 32;
      if ((prev >= 48 && prev <= 57) || prev === 45 || prev === 46 || prev === 101 || prev === 69 || prev === 43) continue;
      LONG_INT.lastIndex = i;
      const m = LONG_INT.exec(text);
      if (m && !Number.isSafeInteger(Number(m[0]))) {
        out += `${text.slice(last, i)}"\\u0000exact-int-${TAG}:${m[0]}"`;
        last = i + m[0].length;
        marked = true;
        i = last - 1;
      }
    }
  }
  if (!marked) return JSON.parse(text);
  return JSON.parse(out + text.slice(last), (_k, v: unknown) =>
    typeof v === 'string' && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v,
  );
}
