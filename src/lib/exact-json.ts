// JSON with exact integers at any size. Sums of amounts may pass 2^53 (docs/decisions.md
// #amounts): they are bigints in memory, and JSON.stringify cannot write a bigint nor
// JSON.parse read a literal beyond 2^53 without rounding it. `stringifyJson` writes a
// bigint as a bare integer literal; `parseJson` reads an integer literal beyond the
// safe range as a bigint. Everything else is JSON.stringify / JSON.parse unchanged (and
// as fast: the bigint paths only run when there is one). The request body's reader
// (`quoteNonIntegerNumbers`) walks JSON text with the same scanner.

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
  const marked = rewriteNumbers(text, (i) => {
    // Only at the start of a number (not inside one).
    const prev = i > 0 ? text.charCodeAt(i - 1) : 32;
    if ((prev >= 48 && prev <= 57) || prev === 45 || prev === 46 || prev === 101 || prev === 69 || prev === 43) return undefined;
    LONG_INT.lastIndex = i;
    const m = LONG_INT.exec(text);
    if (!m || Number.isSafeInteger(Number(m[0]))) return undefined;
    return { length: m[0].length, replace: `"\\u0000exact-int-${TAG}:${m[0]}"` };
  });
  if (marked === undefined) return JSON.parse(text);
  return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v));
}

// A JSON number, its fraction and exponent captured.
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * A request body's numbers written with a fraction or an exponent (1.0, 1e2, 2.5E3) as
 * strings, before parsing. JSON.parse would read `1e2` and `100.0` as the integer 100, and
 * an amount written so is a 400 naming the field (docs/decisions.md#amounts): as a string,
 * the zod schema of that field refuses it with its own path. Every number of the API is an
 * integer, so nothing valid is lost. Strings in the body are copied untouched.
 */
export function quoteNonIntegerNumbers(raw: string): string {
  // Fast path: no '.', 'e' or 'E' anywhere means no such number.
  if (!/[.eE]/.test(raw)) return raw;
  return (
    rewriteNumbers(raw, (i) => {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(raw);
      if (!m) return undefined;
      return { length: m[0].length, ...(m[1] !== undefined || m[2] !== undefined ? { replace: `"${m[0]}"` } : {}) };
    }) ?? raw
  );
}

/**
 * The one walk of JSON text both readers above share: outside string literals (escapes
 * honoured), `at` is called at each character that may start a number (`-` or a digit)
 * and says how long the number there is and what to write in its place, if anything.
 * The text with those replacements, or undefined when nothing was replaced.
 */
function rewriteNumbers(text: string, at: (i: number) => { length: number; replace?: string } | undefined): string | undefined {
  let out = '';
  let last = 0;
  let replaced = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const found = at(i);
      if (!found) continue;
      if (found.replace !== undefined) {
        out += text.slice(last, i) + found.replace;
        last = i + found.length;
        replaced = true;
      }
      i += found.length - 1;
    }
  }
  return replaced ? out + text.slice(last) : undefined;
}
