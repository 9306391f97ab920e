// The one list of sensitive data (docs/journal.md "What is never kept"): card numbers
// and CVVs, bank account and routing numbers, SSNs, EINs, ITINs and any tax id, API
// keys, the admin token and webhook secrets. Every output path masks through this
// module: the onboarding store (tax ids kept as their last four, `•••••6789`), the
// request journal and the recordings and scenario files made of it, the sandbox export
// (a column named like a secret field is never in a file), event idempotency keys, the
// access log and `payctl logs tail`. A new output path goes through it too;
// test/security/sensitive-outputs.test.ts walks every field through every output.
//
// Two forms: a tax id or a routing number keeps its last four (`maskLastFour`), as the
// store keeps it, so a recorded onboarding still reads and replays; anything that is a
// secret in itself (a card number, a CVV, a bank account number, a key, a secret) is
// replaced by `[redacted]` whole.

export const REDACTED = '[redacted]';

/** Fields whose value keeps only its last four characters: tax ids and routing numbers. */
export const LAST_FOUR_FIELDS: ReadonlySet<string> = new Set(['ssn', 'itin', 'ein', 'tax_id', 'taxpayer_id', 'routing_number']);
/** The tax ids among them (the onboarding store masks these). */
export const TAX_ID_FIELDS: ReadonlySet<string> = new Set(['ssn', 'itin', 'ein', 'tax_id', 'taxpayer_id']);
/** Fields never kept, whatever their value. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'secret',
  'previous_secret',
  'webhook_secret',
  'account_number',
  'card_number',
  'password',
  'keys',
  'api_key',
  'admin_token',
  'session_token',
  'authorization',
]);
/** In a card object (it has a `cvv` or an `expiration_month`): its `number` and `cvv`. Elsewhere they are a phone number, a CVV check's result. */
const CARD_FIELDS: ReadonlySet<string> = new Set(['number', 'cvv']);
/** What API keys (`sk_test_`, `sk_live_`), webhook secrets (`whsec_`) and the admin token (`padm_`) begin with. */
export const SECRET_PREFIXES = ['sk_test_', 'sk_live_', 'whsec_', 'padm_'] as const;

const PREFIXED = /(?:sk_test_|sk_live_|whsec_|padm_)[A-Za-z0-9_-]*/g;
/**
 * 13–19 digits, single spaces or hyphens allowed between them: what a card number may look
 * like in text — standing alone, not inside a longer word (`order-4111…` is taken, `a4111…`
 * is not). A run that touches a UUID is kept (`redactText`): an id's digit groups,
 * `01a20001-3426-7049-8abc-…`, pass the Luhn check by chance one time in ten.
 */
const DIGIT_RUN = /(?<![A-Za-z0-9])\d(?:[ -]?\d){12,18}(?![A-Za-z0-9])/g;

/** "123-45-6789" → "•••••6789"; short values are hidden entirely. */
export function maskLastFour(value: string): string {
  const plain = value.replace(/[^0-9A-Za-z]/g, '');
  return plain.length > 4 ? `•••••${plain.slice(-4)}` : '•••••';
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Whether `value` is a card number: 13–19 digits (spaces and hyphens aside) passing the Luhn check. */
export function isCardNumber(value: string): boolean {
  const digits = value.replace(/[ -]/g, '');
  return /^\d{13,19}$/.test(digits) && luhn(digits);
}

/** Free text with every key, secret and card number in it replaced by [redacted] (log lines, paths). */
export function redactText(text: string): string {
  let out = SECRET_PREFIXES.some((p) => text.includes(p)) ? text.replace(PREFIXED, REDACTED) : text;
  if (/\d{4}/.test(out)) out = out.replace(DIGIT_RUN, (run, at: number, whole: string) => (isCardNumber(run) && !touchesUuid(whole, at, run.length) ? REDACTED : run));
  return out;
}

/** A string value as kept: a secret by its prefix or a card number is [redacted]; other text has those taken out. */
function redactString(value: string): string {
  if (SECRET_PREFIXES.some((p) => value.startsWith(p)) || isCardNumber(value)) return REDACTED;
  return redactText(value);
}

/** A value nested deeper than this is not walked (it is refused whole: `TooDeep`). */
export const MAX_DEPTH = 64;

/** A document nested deeper than MAX_DEPTH levels: kept nowhere (the journal records the call with its body refused). */
export class TooDeep extends Error {
  constructor() {
    super(`nested deeper than ${MAX_DEPTH} levels`);
  }
}

/**
 * `value` with every sensitive field masked (tax ids and routing numbers to their last
 * four) or [redacted] (secrets by field name or prefix, card numbers and CVVs, any card
 * number anywhere). Throws TooDeep past MAX_DEPTH levels.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const card = 'number' in value && ('cvv' in value || 'expiration_month' in value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) out[k] = v;
    else if (SECRET_FIELDS.has(k) || (card && CARD_FIELDS.has(k))) out[k] = REDACTED;
    else if (LAST_FOUR_FIELDS.has(k) && typeof v === 'string') out[k] = maskLastFour(v);
    else out[k] = redact(v, depth + 1);
  }
  return out;
}

// What in a JSON text may need `redact`: a sensitive field name (a card's
// `expiration_month` and a CVV of digits among them), a secret's prefix, a card number's
// digits, or a \u escape (which could spell any of them). A text with none of them is
// kept as it is, unparsed (the common case: a sale's body and answer); checked in plain
// scans, which run faster than one pattern of every alternative.
const NAMES = /"(?:ssn|itin|ein|tax_id|taxpayer_id|routing_number|secret|previous_secret|webhook_secret|account_number|card_number|password|keys|api_key|admin_token|session_token|authorization|expiration_month)"|"cvv"\s*:\s*"?\d/;
const PREFIXES = /sk_test_|sk_live_|whsec_|padm_/;
/**
 * A digit and 12 more digits, spaces or hyphens: where every run DIGIT_RUN takes begins (its
 * bounds aside), and every value isCardNumber takes (13 digits, with runs of separators).
 * A superset that fails fast on dates and amounts (a class repeated, no alternation).
 */
const CARD_DIGITS = /\d[\d -]{12}/g;
const UUID_AT = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/y;
const isUuidChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) || c === 45;

/** The end of the UUID that the character at `at` lies in, or -1. */
function uuidEndAround(s: string, at: number): number {
  let from = at;
  while (from > 0 && at - from < 35 && isUuidChar(s.charCodeAt(from - 1))) from--;
  for (let i = from; i <= at; i++) {
    UUID_AT.lastIndex = i;
    if (UUID_AT.test(s)) return i + 36;
  }
  return -1;
}

/** Whether the run at `at` of `length` characters begins or ends inside a UUID (a UUID is longer than any run, so it cannot lie wholly inside one). */
function touchesUuid(s: string, at: number, length: number): boolean {
  return uuidEndAround(s, at) >= 0 || uuidEndAround(s, at + length - 1) >= 0;
}

/**
 * Whether a card number may be in a JSON text. Digit runs inside a UUID are passed over:
 * DIGIT_RUN never takes one there (an id's digit groups are no card number), and ids are
 * in every answer — a test that stopped at them parsed and walked about one answer in
 * twenty, and every answer of a group whose processor's id has three groups of digits.
 */
function mayHoldCardDigits(json: string): boolean {
  CARD_DIGITS.lastIndex = 0;
  for (let m = CARD_DIGITS.exec(json); m !== null; m = CARD_DIGITS.exec(json)) {
    // redactText takes no run that begins inside a UUID (touchesUuid), and none runs
    // through one (its 32 digits are too many).
    const end = uuidEndAround(json, m.index);
    if (end < 0) return true;
    CARD_DIGITS.lastIndex = end;
  }
  return false;
}

/** Whether a JSON text may hold something `redact` changes (false: it certainly does not). */
export const mayHoldSensitive = (json: string): boolean =>
  NAMES.test(json) || PREFIXES.test(json) || json.includes('\\u') || mayHoldCardDigits(json);

/** Whether a JSON text opens fewer than `limit` objects and arrays in all (so nests no deeper): a count, cheaper than jsonDepth. */
export function opensFewer(json: string, limit = MAX_DEPTH): boolean {
  let n = 0;
  for (const ch of ['{', '[']) {
    for (let i = json.indexOf(ch); i >= 0; i = json.indexOf(ch, i + 1)) if (++n >= limit) return false;
  }
  return true;
}

/** How deeply a JSON text nests (brackets outside strings), stopping once past `limit`. */
export function jsonDepth(json: string, limit = MAX_DEPTH): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < json.length; i++) {
        const d = json.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}
