// PostgreSQL's planner needed two things for the background claims (its migration 29): a
// partial index handing settlement its chunk in (created_at, id) order, and statistics on
// `groups` kept fresh. SQLite's planner keeps its plans without statistics and every
// index costs each sale's insert here, so this version has nothing to do on SQLite; it
// keeps the two stores' version numbers in step.
export default {
  version: 29,
  name: 'settlement-claim-index',
  statements: [],
};
