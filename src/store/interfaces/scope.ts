/**
 * Whose due work a scheduler job does: one group; every group on a running clock with this
 * offset; or (webhook deliveries only: they keep real time) every group whose clock is not
 * running — frozen or accelerated (docs/clock.md "What runs on which clock").
 */
export type GroupScope = { groupId: string } | { offsetMs: number } | { realTime: true };
