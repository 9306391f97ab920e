// On PostgreSQL the reporting rollups get a slot per server (its migration 26), so that
// servers counting sales of the same day and dimensions do not all update one row. One
// process writes a SQLite file, so here there is nothing to spread and this version has
// nothing to do; it keeps the two stores' version numbers in step.
export default {
  version: 26,
  name: 'rollup-slots',
  statements: [],
};
