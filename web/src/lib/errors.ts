import { ApiError } from '../api/client';

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message !== '') return error.message;
  return 'Something went wrong.';
}

// The server names the offending input in `field`; forms use this to highlight it.
export function errorField(error: unknown): string | null {
  return error instanceof ApiError && error.field !== undefined ? error.field : null;
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

// A field error belongs to an input when the server names it or one of its parts
// (recipients.2 belongs to recipients).
export function fieldMatches(field: string | null, name: string): boolean {
  return field !== null && (field === name || field.startsWith(`${name}.`));
}
