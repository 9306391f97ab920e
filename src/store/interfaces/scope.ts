/** Whose due work a scheduler job does: one group, or every group whose clock has this offset. */
export type GroupScope = { groupId: string } | { offsetMs: number };
