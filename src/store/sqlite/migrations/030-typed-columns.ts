// PostgreSQL's migration 30 types its instants (`timestamptz`) and the JSON documents no
// client sees in a key order of its own (`jsonb`); the store reads both back as the text
// SQLite holds. SQLite has one text type for both, so this version has nothing to do on
// SQLite; it keeps the two stores' version numbers in step.
export default {
  version: 30,
  name: 'typed-columns',
  statements: [],
};
