import { fieldSentence } from './field-words.js';

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

/**
 * Bad input about one field, kept as its problem so the one formatter words it with the field's
 * label: the HTTP handler uses the route schema's titles ("Recipient 1 (bob@) is not an e-mail
 * address"); elsewhere (the command line) the message already reads with the field's name in words.
 */
export class FieldError extends AppError {
  readonly problem: string;
  readonly value: unknown;
  constructor(field: string, problem: string, value?: unknown) {
    super(400, fieldSentence({ field, problem, value }), field);
    this.name = 'FieldError';
    this.problem = problem;
    this.value = value;
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, message, field);
export const unauthorized = (message = 'sign in first') => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, undefined, extra);
/** One field is wrong: `invalid('recipients.0', 'is not an e-mail address', 'bob@')`. */
export const invalid = (field: string, problem: string, value?: unknown) => new FieldError(field, problem, value);
/** Something with this name exists already: the same answer as a unique constraint's (platform/db/unique-violation). */
export const taken = (message: string, field: string) => new AppError(409, message, field);
