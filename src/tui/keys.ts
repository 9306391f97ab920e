// Keystrokes for the Ink screens. Ink hands a handler one stdin chunk at a time, and a
// paste (or a terminal multiplexer's send-keys) delivers typed text and Enter in ONE
// chunk ("settled\r"): Ink sees neither a plain key nor Enter in it. useKeys splits such
// a chunk into the text and the Enter keystrokes a person would have typed, in order.
import { ink, React } from './runtime.js';

/** The key facts the screens read (a subset of Ink's Key). */
export interface KeyInfo {
  upArrow?: boolean;
  downArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  shift?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

export type KeyHandler = (input: string, key: KeyInfo) => void;

/**
 * One chunk → the keystrokes in it: text runs as typed text, each line break as Enter,
 * each DEL or BS as Backspace (never typed into a field as a control character).
 */
export function splitKeystrokes(input: string, key: KeyInfo): Array<[string, KeyInfo]> {
  const isPaste = input.length > 1 && /[\r\n\x7f\b]/.test(input) && !key.ctrl && !key.meta && !key.escape;
  if (!isPaste) return [[input, key]];
  const strokes: Array<[string, KeyInfo]> = [];
  for (const part of input.split(/(\r\n|\r|\n|\x7f|\b)/)) {
    if (part === '') continue;
    if (/^[\r\n]+$/.test(part)) strokes.push(['\r', { return: true }]);
    else if (part === '\x7f' || part === '\b') strokes.push(['', { backspace: true }]);
    else strokes.push([part, {}]);
  }
  return strokes;
}

/**
 * ink.useInput, with pasted text + Enter delivered as separate keystrokes. The handler of the
 * latest render takes every key: Ink re-subscribes a new handler only in an effect, after the
 * frame is on screen, so a key typed in answer to that frame (q right after a filter is applied)
 * would reach the previous render's handler and its stale state.
 *
 * Several keys in one read (key repeat, SSH, a paste of arrows) reach the handler one after
 * another in the same turn, before React renders again: a handler must take the state it
 * changes from a ref or a reducer, never from the render it was made in, or every key but
 * the first is lost.
 */
export function useKeys(handler: KeyHandler): void {
  const latest = React.useRef(handler);
  latest.current = handler;
  // A handler runs outside React's render: an exception there would end the process with
  // Node's stack trace. It is thrown again inside render, where the screen's boundary takes it.
  const [, rethrow] = React.useState<undefined>();
  const onInput = React.useCallback((input: string, key: KeyInfo) => {
    try {
      for (const [i, k] of splitKeystrokes(input, key)) latest.current(i, k);
    } catch (err) {
      rethrow(() => {
        throw err;
      });
    }
  }, []);
  ink.useInput(onInput);
}

/**
 * State that key handlers read and write: the ref holds the value a second key of the same
 * read must see (React renders only after the whole read), the state makes React render it.
 */
export function useRefState<T>(initial: T): [T, (next: T | ((v: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = React.useState<T>(initial);
  const ref = React.useRef<T>(value);
  const set = React.useCallback((next: T | ((v: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (v: T) => T)(ref.current) : next;
    setValue(ref.current);
  }, []);
  return [value, set, ref];
}
