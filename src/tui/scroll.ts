// A window of lines over a text taller than the terminal (the report's summary view, the
// wizard's review): the screens draw `height` lines from `top` and move `top` with the
// keys a pager answers to. Pure, so the screens keep `top` in their own state.
import type { KeyInfo } from './keys.js';

/** The lines shown: `top` kept within the text (a text that shrank keeps its last page). */
export function clampTop(top: number, total: number, height: number): number {
  return Math.max(0, Math.min(top, total - height));
}

/** `top` after a key: ↑/↓ a line, PgUp/PgDn (and space) a page, Home/End the ends; undefined for any other key. */
export function scrollKey(top: number, total: number, height: number, input: string, key: KeyInfo): number | undefined {
  const page = Math.max(1, height - 1);
  let next: number;
  if (key.downArrow) next = top + 1;
  else if (key.upArrow) next = top - 1;
  else if (key.pageDown || input === ' ') next = top + page;
  else if (key.pageUp) next = top - page;
  else if (key.home) next = 0;
  else if (key.end) next = total;
  else return undefined;
  return clampTop(next, total, height);
}

/** The pager's line under the window: where it is, and the keys, only when the text does not fit. */
export function scrollStatus(top: number, total: number, height: number): string | undefined {
  if (total <= height) return undefined;
  return `lines ${top + 1}–${Math.min(total, top + height)} of ${total} (↑/↓ PgUp/PgDn)`;
}
