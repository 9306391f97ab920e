// Loader hooks of module-trace.ts (they run on the loader thread): record each ES module loaded.
import { appendFileSync } from 'node:fs';

let out = '';
export function initialize(data: { out: string }): void {
  out = data.out;
}

type Next = (url: string, context: unknown) => Promise<unknown>;
export async function load(url: string, context: unknown, next: Next): Promise<unknown> {
  if (!url.startsWith('node:')) appendFileSync(out, `${url}\n`);
  return next(url, context);
}
