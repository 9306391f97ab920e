// Values at and past every bound, for every route that takes a body or a query, while
// another group sells (support/hostile-values-suite.ts says what is asserted). A few
// runs per route with a fixed seed here (HOSTILE_RUNS, HOSTILE_SEED to change them);
// test/reliability/hostile-values.soak.ts runs many more.
import '../helpers/env.js';
import { hostileValueTests } from './support/hostile-values-suite.js';

hostileValueTests('hostile-values', Number(process.env.HOSTILE_RUNS ?? 12), Number(process.env.HOSTILE_SEED ?? 20261126));
