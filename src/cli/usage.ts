// Usage errors: the command line itself is wrong — a flag value that cannot be read
// (money that is not money, an unknown option), a missing argument, flags that cannot
// go together. They exit 2, like oclif's own parse errors; a request the platform
// refuses is a user error (an AppError) and exits 1. The command base maps both.
import { Errors } from '@oclif/core';

export const USAGE_EXIT = 2;

export class UsageError extends Errors.CLIError {
  constructor(message: string) {
    super(message, { exit: USAGE_EXIT });
  }
}

/** A usage error with a one-line message that says what to write instead. */
export const usage = (message: string): UsageError => new UsageError(message);

/** Whether an error thrown by a command is a usage error (ours, or one of oclif's parse errors). */
export function isUsageError(err: unknown): err is Error & { oclif: { exit: number } } {
  return err instanceof Error && (err as { oclif?: { exit?: number } }).oclif?.exit === USAGE_EXIT;
}
