// Human output: aligned tables (cli-table3) and key/value blocks.
import Table from 'cli-table3';

export function table(head: string[], rows: Array<Array<string | number>>): string {
  const t = new Table({ head, style: { head: process.stdout.isTTY && !process.env.NO_COLOR ? ['cyan'] : [], border: [] } });
  for (const row of rows) t.push(row.map((c) => String(c)));
  return t.toString();
}

export function keyValues(pairs: Array<[string, string | number | boolean | null | undefined]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${v ?? ''}`).join('\n');
}
