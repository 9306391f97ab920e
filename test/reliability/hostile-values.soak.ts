// The hostile-values suite (test/security/support/hostile-values-suite.ts) with many
// runs per route: 1 to 3 bound-breaking values at once in every body and query, another
// group selling throughout. HOSTILE_SOAK_RUNS / HOSTILE_SEED to change.
import '../helpers/env.js';
import { hostileValueTests } from '../security/support/hostile-values-suite.js';
import { testStore } from '../helpers/platform.js';

// Fewer runs on PostgreSQL: one server's writes there are each a transaction of their own (a
// run per route takes several times as long), and both passes of the soaks must fit CI's time.
const runs = Number(process.env.HOSTILE_SOAK_RUNS ?? (testStore === 'postgres' ? 40 : 150));
hostileValueTests('hostile-values-soak', runs, Number(process.env.HOSTILE_SEED ?? 20261126));
