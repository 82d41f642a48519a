/** The one error family. The HTTP error handler maps it to `{error, field?}` with its status. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly field: string | undefined;
  readonly extra: Record<string, unknown> | undefined;
  constructor(status: ErrorStatus, message: string, field?: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.field = field;
    this.extra = extra;
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, message, field);
export const unauthorized = (message = 'sign in first') => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, undefined, extra);
/** Something with this name exists already: the same answer as a unique constraint's (platform/db/unique-violation). */
export const taken = (message: string, field: string) => new AppError(409, message, field);
