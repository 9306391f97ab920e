// How a scenario file writes literal text (docs/scenarios.md): `${` starts a reference,
// so a literal `${` is written `$${`. Apart from the schema (scenarios.ts) so that the
// recording, which writes scenario files, can use it without loading the schema.

/** `$${` in a file's text: a literal `${`. */
export const ESCAPED_REF = '$${';

/** `text` written so that a run sends it exactly as it is: every `${` as `$${` (a function, since `$$` in a replacement string means one `$`). */
export const escapeText = (text: string): string => text.replaceAll('${', () => ESCAPED_REF);
