// CSV (RFC 4180): fields with a comma, quote or line break are quoted, quotes doubled.
// Text that a spreadsheet would run as a formula (= + - @ at the start) is prefixed
// with a quote character: customer names and order ids come from outside.
export type CsvValue = string | number | bigint | boolean | null | undefined;

export function csvField(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'string') return String(v);
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;
