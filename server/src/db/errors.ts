/** True when the error is a unique-constraint violation on either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}

/**
 * True when the database could not be reached or dropped the connection: PostgreSQL restarting or failing over
 * (class 08, 57P01-57P03), a refused or reset socket; or SQLite still locked by another process (a maintenance tool)
 * when the busy timeout ran out. The request may succeed when repeated a little later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  // Socket errors read `connect ECONNREFUSED 127.0.0.1:5432`, `read ECONNRESET`, `connect ENOENT /run/.s.PGSQL.5432`.
  if (/^(connect|read|write) E[A-Z]+/.test(String(e?.message ?? ''))) return true;
  if (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code)) return true;
  // pg's own errors when the socket closes under a client carry no code.
  return /^(Connection terminated|Client has encountered a connection error|Connection ended)/i.test(String(e?.message ?? ''));
}

/**
 * True when PostgreSQL refused a value it cannot hold (SQLSTATE class 22, data exception): an integer past its
 * column's range, a NUL character in text. The value came from the request, so it is the sender's mistake.
 */
export function isValueOutOfRange(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}
