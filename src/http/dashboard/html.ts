// HTML built by a tagged template that escapes every interpolated value unless it is
// already `Html` (made by this template or by `raw` for the few fragments built here), so
// a customer named `<img src=x onerror=…>` is text on every page without each view
// remembering to escape it (docs/dashboard.md, "Safety").
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function piece(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return (v as readonly Value[]).map(piece).join('');
  return escapeText(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup made here, not from a client's value (an SVG drawn from numbers). */
export const raw = (s: string): Html => new Html(s);

/** A path segment or query value in a link. */
export const enc = encodeURIComponent;

/** `?a=1&b=2` from the set values (empty when none). */
export function queryString(q: Record<string, string | number | undefined | null>): string {
  const parts = Object.entries(q)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${enc(k)}=${enc(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Pretty JSON of an API object, as text in a <pre> (focusable: a wide one scrolls sideways, and a keyboard must reach it). */
export const jsonBlock = (v: unknown): Html => html`<pre class="json" tabindex="0">${JSON.stringify(v, null, 2)}</pre>`;
