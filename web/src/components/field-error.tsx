import { fieldMatches } from '../lib/errors';

// The server's message under the input it names (`recipients.2` under the recipients).
export function FieldError({ field, name, message }: { field: string | null; name: string; message: string | null }) {
  if (message === null || !fieldMatches(field, name)) return null;
  return (
    <span className="field-error small" role="alert" data-testid="field-error" data-field={field ?? undefined}>
      {message}
    </span>
  );
}
