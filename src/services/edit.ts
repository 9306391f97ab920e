// Patch-style updates. The API's updates replace the whole object (a body); the CLI's
// update commands change some fields and keep the rest. They pass an edit instead: a
// function from the current object (read inside the update's own unit of work) to the
// full body, so reading, merging and writing are one transaction — no lost update when
// another process writes the same object in between. Each update is two use cases:
// `updateX` takes the API's body, `editX` takes `{ id, edit }`; both run the same update,
// and the edit's body is checked with the API's schema inside the transaction.
import { z } from 'zod';

/** The current object → the full replacement body. */
export type Edit<T> = (current: T) => unknown;

/** An edit as a use case's input field (the CLI's update commands pass one). */
export const editField = <T>() => z.custom<Edit<T>>((v) => typeof v === 'function', 'must be an edit of the current object');
