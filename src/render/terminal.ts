// The width human output is laid out for: the terminal's, else $COLUMNS (set by shells
// and by tests), else 80.
export function terminalColumns(stream: { columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  if (stream.columns && stream.columns > 0) return stream.columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}
