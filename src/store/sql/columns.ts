// Column encodings of both stores (PostgreSQL reads its columns back in them:
// postgres/types.ts): JSON text for objects, 0/1 for booleans. Only repositories use
// these; entities above src/store carry the values themselves.

/** `value` as a JSON text column (null stays NULL). */
export const jsonColumn = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** A JSON text column as its value (NULL is null). */
export const fromJsonColumn = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** A boolean as a 0/1 column. */
export const flagColumn = (b: boolean): 0 | 1 => (b ? 1 : 0);
