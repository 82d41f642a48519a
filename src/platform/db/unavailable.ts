/**
 * Whether an error says the database is out of reach (stopped, restarting, refusing connections,
 * out of connections, or no free connection in the pool in time), as against a query that failed.
 * Such a request is answered 503 with Retry-After, and the worker waits for its next poll: nothing
 * is the client's fault, and nothing was written.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/**
 * Thrown instead of joining the queue for a connection when that queue is already long: under such
 * a load, waiting would only end in the connect timeout, so the request is answered 503 at once.
 */
export class DatabaseBusyError extends Error {
  constructor(readonly waiting: number) {
    super(`no free database connection: ${waiting} requests are already waiting for one`);
  }
}

/** A request turned away because every connection is in use and many wait: the queue drains in moments. */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 1;

/** What a 503 for an unavailable database says, and when to come back. */
export function unavailableAnswer(err: unknown): { retryAfter: number; message: string } {
  if (err instanceof DatabaseBusyError) return { retryAfter: DATABASE_BUSY_RETRY_AFTER_SECONDS, message: `the server is busy: every database connection is in use; retry in ${DATABASE_BUSY_RETRY_AFTER_SECONDS} s` };
  return { retryAfter: DATABASE_RETRY_AFTER_SECONDS, message: `the database is not answering; retry in ${DATABASE_RETRY_AFTER_SECONDS} s` };
}

/** SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown), and 53300 (too many connections). */
const UNAVAILABLE_SQLSTATE = /^(08\d{3}|57P0[1-4]|53300)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNABORTED']);
/** node-postgres says these in words only. */
const UNAVAILABLE_WORDS = ['Connection terminated', 'timeout exceeded when trying to connect', 'Client has encountered a connection error', 'Client was closed and is not queryable', 'Cannot use a pool after calling end on the pool'];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if (err instanceof DatabaseBusyError) return true;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNAVAILABLE_ERRNO.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_WORDS.some((w) => (e.message as string).includes(w))) return true;
  // An AggregateError of one refused connection per address (localhost: ::1 and 127.0.0.1).
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0 && errors.every((x) => isDatabaseUnavailable(x))) return true;
  return e.cause !== undefined && e.cause !== err ? isDatabaseUnavailable(e.cause) : false;
}
