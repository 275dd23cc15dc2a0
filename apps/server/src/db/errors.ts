/** True when an insert or update broke a unique constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * True when PostgreSQL refused a text value it cannot hold (a NUL character, or bytes that are not UTF-8): bad input
 * that SQLite would have taken, so it is the request's fault, not the server's.
 */
export function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '22021' || code === '22P05';
}
