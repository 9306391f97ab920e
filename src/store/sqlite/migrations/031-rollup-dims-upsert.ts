// On PostgreSQL migration 31 makes the per-dimension rollup follow transaction_daily with
// one upsert of the change instead of an UPDATE that first reads the rows (under
// SERIALIZABLE that read left a lock on the rollup's index page, and concurrent sales in
// other slots failed each other's commits). SQLite's trigger runs in its one writer, so
// this version has nothing to do here; it keeps the two stores' version numbers in step.
export default {
  version: 31,
  name: 'rollup-dims-upsert',
  statements: [],
};
