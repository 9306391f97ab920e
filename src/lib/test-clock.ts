// Where the clocks of test sandboxes stand (docs/testing.md "Time in tests"): the test kit
// (payctl/testing) and `payctl scenario run` make frozen sandboxes at this instant unless
// told otherwise. A fixed date, so every run of a test sees the same dates; noon UTC on
// the 15th, so a test that moves hours or days crosses neither a settlement cutoff
// (00:00 UTC) nor a month end by accident. Here because both the kit (a client-side
// package) and the scenario runner read it.
export const TEST_CLOCK_ANCHOR = '2030-01-15T12:00:00.000Z';

/** What a test sandbox's clock is by default: frozen at the anchor. */
export const TEST_CLOCK = { time: TEST_CLOCK_ANCHOR, mode: 'frozen' } as const;
