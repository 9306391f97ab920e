// JSON numbers written with a fraction or an exponent (1.0, 1e2, 2.5E3) turn into
// strings before parsing. JSON.parse would read `1e2` and `100.0` as the integer 100,
// and docs/decisions.md#amounts says an amount written so is a 400 naming the field: as a string, the
// zod schema of that field refuses it with its own path. Every number in this API is an
// integer, so nothing valid is lost. Strings in the body are copied untouched.
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

export function quoteNonIntegerNumbers(raw: string): string {
  // Fast path: no '.', 'e' or 'E' anywhere means no such number.
  if (!/[.eE]/.test(raw)) return raw;
  let out = '';
  let last = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip a string literal, honouring escapes.
      for (i++; i < raw.length; i++) {
        const d = raw.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(raw);
      if (!m) continue;
      if (m[1] !== undefined || m[2] !== undefined) {
        out += `${raw.slice(last, i)}"${m[0]}"`;
        last = i + m[0].length;
      }
      i += m[0].length - 1;
    }
  }
  return last === 0 ? raw : out + raw.slice(last);
}
