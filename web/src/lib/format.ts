// Audit data is compared across machines and time zones, so every timestamp the UI
// shows is UTC with an explicit Z, never the browser's local time.
export function formatUtc(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)}Z`;
}

// Minute precision for dense tables where the exact second is rarely the question.
export function formatUtcMinute(iso: string | null | undefined): string {
  const full = formatUtc(iso);
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/.test(full) ? `${full.slice(0, 16)}Z` : full;
}

export function shortHash(hash: string, length = 12): string {
  return hash.length > length ? `${hash.slice(0, length)}…` : hash;
}

export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

/** A server's message as a sentence on its own: the first letter capitalised. */
export function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
