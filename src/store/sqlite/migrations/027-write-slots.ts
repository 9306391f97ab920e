// On PostgreSQL the reporting rollups and the change counters (config_version,
// vault_version) get a slot per server (its migration 27), so that servers counting sales
// of the same day, or changing configuration at once, do not all update one row. One
// process writes a SQLite file, so here there is nothing to spread and this version has
// nothing to do; it keeps the two stores' version numbers in step.
export default {
  version: 27,
  name: 'write-slots',
  statements: [],
};
