// An Idempotency-Key whose answer is known only after its commit (an onboarding 202 when
// the confirmation e-mail fails) is recorded as still running until its answer is
// settled: `settling_until` (real time, ms) — a replay before then, on any server, gets
// 409; past it (the server died before settling) the recorded answer is replayed.
export default {
  version: 28,
  name: 'idempotency-settling',
  statements: ['ALTER TABLE idempotency_keys ADD COLUMN settling_until INTEGER'],
};
