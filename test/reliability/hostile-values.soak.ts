// The hostile-values suite (test/security/support/hostile-values-suite.ts) with many
// runs per route: 1 to 3 bound-breaking values at once in every body and query, another
// group selling throughout. HOSTILE_SOAK_RUNS / HOSTILE_SEED to change.
import '../helpers/env.js';
import { hostileValueTests } from '../security/support/hostile-values-suite.js';

hostileValueTests('hostile-values-soak', Number(process.env.HOSTILE_SOAK_RUNS ?? 150), Number(process.env.HOSTILE_SEED ?? 20261126));
