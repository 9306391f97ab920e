// The API's paths as a sandbox's client sees them: {group_id} and {linked_account_id}
// are filled from the sandbox, so a call may leave them out (the other path parameters
// stay required). Types only.
import type { paths } from '../client/api.js';

type Filled = 'group_id' | 'linked_account_id';
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RestPath<P> = Simplify<Omit<P, Filled> & Partial<Pick<P, Extract<keyof P, Filled>>>>;
/** Whether T has a required key ({} is not a T). */
type HasRequired<T> = {} extends T ? false : true;
type FillParams<Prm> = Prm extends { path: infer P }
  ? HasRequired<RestPath<P>> extends true
    ? Simplify<Omit<Prm, 'path'> & { path: RestPath<P> }>
    : Simplify<Omit<Prm, 'path'> & { path?: RestPath<P> }>
  : Prm;
type FillOperation<Op> = Op extends { parameters: infer Prm } ? Simplify<Omit<Op, 'parameters'> & { parameters: FillParams<Prm> }> : Op;

export type SandboxPaths = {
  [P in keyof paths]: { [M in keyof paths[P]]: M extends 'parameters' ? paths[P][M] : FillOperation<paths[P][M]> };
};
