// The test files that run on both stores (dist/test-relative): every store-dependent
// one, on PostgreSQL too. The CLI suites run here: test/helpers/cli.ts hands the child
// payctl the suite's database (PAYCTL_DB, a postgres:// URL on this pass) and a data
// folder of that database's own (helpers/platform.ts dataDirOf), as a SQLite file's
// folder holds its profile. What a test reads of the store itself goes through
// helpers/store.ts on either dialect (its tables, the files its data is in, a hold on
// its writes, a second store on it).
//
// Not here, and why:
// - tests that touch no store (test/domain, render, lint, pdf, processor, lib,
//   cli/manifest, contract/drift, the TUI component tests but onboarding-wizard, the
//   webhook client, lane and receiver-limit tests);
// - tests of the SQLite store itself: store/db (group commit, WAL), store/events
//   (migration 18's rebuild, AUTOINCREMENT, query plans), store/migrations (SQLite's
//   migration history), store/group-tables (reads SQLite's schema: the list it checks
//   is the one both stores walk), store/rollup-migration (a SQLite database from before
//   the rollup migration);
// - docs/examples: the docs' shell blocks run as a reader types them, on the default
//   embedded store (PAYCTL_* of the test run are cleared on purpose);
// - reliability/*.soak: `npm run test:reliability` runs them on both stores (not `npm test`);
// - kit/*: payctl/testing starts its own `payctl serve` on a SQLite file, as a user's
//   suite does; the API it drives is covered on both stores by the http suites;
// - examples/*: copyable templates that start their own `payctl serve` on a SQLite file
//   and import no test helper; what they drive is covered here by the http suites.
// docs/postgresql.md says what is not covered.
export const POSTGRES_SUITE = [
  'browser/invoice-page.test.js',
  'browser/pay-page.test.js',
  'cli/api-objects.test.js',
  'cli/catalog.test.js',
  'cli/clock-bounds.test.js',
  'cli/completion.test.js',
  'cli/config.test.js',
  'cli/db-target.test.js',
  'cli/events.test.js',
  'cli/exact-sums.test.js',
  'cli/exit-codes.test.js',
  'cli/fast-start.test.js',
  'cli/faults.test.js',
  'cli/flags.test.js',
  'cli/foundation.test.js',
  'cli/link.test.js',
  'cli/lists.test.js',
  'cli/onboard-session.test.js',
  'cli/onboard.test.js',
  'cli/progress.test.js',
  'cli/recurring.test.js',
  'cli/report-browser-memory.test.js',
  'cli/report-summary.test.js',
  'cli/report.test.js',
  'cli/sandbox.test.js',
  'cli/scenario-recording.test.js',
  'cli/scenarios.test.js',
  'cli/serve-urls.test.js',
  'cli/transactions.test.js',
  'cli/trigger.test.js',
  'cli/webhooks.test.js',
  'contract/flow.test.js',
  'dev/listen.test.js',
  'dev/logs-tail.test.js',
  'http/catalog.test.js',
  'http/clock-catch-up.test.js',
  'http/event-catalog.test.js',
  'http/health.test.js',
  'http/event-stream.test.js',
  'http/events.test.js',
  'http/exact-money.test.js',
  'http/faults.test.js',
  'http/foundation.test.js',
  'http/fresh-read.test.js',
  'http/invoice-page.test.js',
  'http/invoices.test.js',
  'http/jobs-outage.test.js',
  'http/json-numbers.test.js',
  'http/long-jobs-outage.test.js',
  'http/metrics.test.js',
  'http/onboarding.test.js',
  'http/openapi.test.js',
  'http/page-headers.test.js',
  'http/payment-links.test.js',
  'http/plan-update-chunks.test.js',
  'http/rate-limit.test.js',
  'http/recurring.test.js',
  'http/reporting-summary.test.js',
  'http/reporting.test.js',
  'http/sandbox-file-fidelity.test.js',
  'http/sandbox-files.test.js',
  'http/sandbox-import-progress.test.js',
  'http/sandbox-import-checks.test.js',
  'http/sandbox-fork-chunks.test.js',
  'http/sandbox-fork-progress.test.js',
  'http/sandbox-parallel.test.js',
  'http/sandboxes.test.js',
  'http/store-unavailable.test.js',
  'http/stream-outage.test.js',
  'http/stream-behind-outage.test.js',
  'http/strict-time.test.js',
  'http/transactions.test.js',
  'http/webhook-faults.test.js',
  'http/webhook-isolation.test.js',
  'http/webhooks.test.js',
  'mail/after-commit-delivery.test.js',
  'reliability-fast/catch-up-kill.test.js',
  'reliability-fast/fork-kill.test.js',
  'reliability-fast/plan-update-kill.test.js',
  'reliability-fast/races.test.js',
  'reliability-fast/shutdown.test.js',
  'reliability-fast/webhooks-kill.test.js',
  'security/card-data.test.js',
  'security/fuzz.test.js',
  'security/hostile-input.test.js',
  'security/hostile-memory.test.js',
  'security/hostile-values.test.js',
  'security/isolation.test.js',
  'security/rate-limit.test.js',
  'services/billing.test.js',
  'services/due-work-failure-domains.test.js',
  'services/sandbox-drop-chunks.test.js',
  'services/group-clocks.test.js',
  'services/patch-updates.test.js',
  'services/settlement-chunks.test.js',
  'services/settlement-race.test.js',
  'services/webhook-claims.test.js',
  'services/webhook-fault-holds.test.js',
  'services/write-options.test.js',
  'store/config-cache.test.js',
  'store/rollup.test.js',
  'store/schema.test.js',
  'tui/no-color.test.js',
  'tui/onboarding-wizard.test.js',
];
