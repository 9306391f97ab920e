// Durations (`30d`, `1d12h`) and instants (RFC 3339) as people type them: the clock
// commands, the sandbox clock route and rate-limit settings share these parsers.
const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** "30d", "12h", "90m", "1d12h" → milliseconds. */
export function parseDuration(text: string): number {
  const re = /(\d+)(ms|s|m|h|d|w)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.trim().matchAll(re)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    consumed += m[0].length;
  }
  if (consumed === 0 || consumed !== text.trim().length) {
    throw new Error(`"${text}" is not a duration (write 30d, 12h, 90m, 45s or combinations like 1d12h)`);
  }
  return total;
}

/** RFC 3339 with an explicit zone, or a plain YYYY-MM-DD (midnight UTC). */
export function parseInstant(text: string): Date {
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text);
  const d = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (!ok || Number.isNaN(d.getTime())) throw new Error(`"${text}" is not an RFC 3339 time (write 2027-01-01T00:00:00Z)`);
  return d;
}
