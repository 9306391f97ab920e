// The newest schema version, without loading the migrations: a database already at it
// (every command but the first) opens without them. Bump it with each new migration
// (test/store/migrations.test.ts checks it is the newest of the list, and the list 1…N).
export const LATEST_VERSION = 38;
