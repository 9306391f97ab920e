// Server state several servers on one database share (the pay rate limit's windows, the
// running servers' admin tokens) lives in PostgreSQL tables (its migration 24). One
// process serves a SQLite file, so here that state stays in the process's memory and
// this version has nothing to do; it keeps the two stores' version numbers in step.
export default {
  version: 24,
  name: 'shared-server-state',
  statements: [],
};
