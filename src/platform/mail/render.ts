/** What a message says, once, rendered to plain text and to simple HTML alike. */
export type MailContent = {
  heading: string;
  /** Paragraphs. */
  lines: string[];
  /** Label and value pairs; a value may span several lines. */
  facts?: Array<[label: string, value: string]>;
  lists?: Array<{ title: string; items: string[] }>;
  /** Links drawn as buttons in HTML; in text, one per line with its address. */
  actions?: Array<{ label: string; url: string }>;
  /** Small print: why the reader gets this. */
  note?: string;
};

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** One pass, and none for text with nothing to escape: a 300-service report escapes thousands of names. */
export function escapeHtml(s: string): string {
  return /[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!) : s;
}

function text(c: MailContent): string {
  const out: string[] = [c.heading, '', ...c.lines.flatMap((l) => [l, ''])];
  if (c.facts?.length) {
    for (const [label, value] of c.facts) out.push(`${label}: ${value.split('\n').join('\n  ')}`);
    out.push('');
  }
  for (const l of c.lists ?? []) out.push(`${l.title}:`, ...l.items.map((i) => `  - ${i}`), '');
  for (const a of c.actions ?? []) out.push(`${a.label}: ${a.url}`);
  if (c.actions?.length) out.push('');
  if (c.note) out.push('-- ', c.note);
  return `${out.join('\n').trimEnd()}\n`;
}

const FONT = 'font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;';

function html(c: MailContent): string {
  const p = (s: string) => `<p style="margin:0 0 12px">${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;
  const parts = [`<h2 style="margin:0 0 16px;font-size:18px">${escapeHtml(c.heading)}</h2>`, ...c.lines.map(p)];
  if (c.facts?.length) {
    const rows = c.facts.map(([label, value]) =>
      `<tr><th align="left" valign="top" style="padding:2px 16px 2px 0;color:#555;font-weight:600;white-space:nowrap">${escapeHtml(label)}</th>` +
      `<td style="padding:2px 0">${escapeHtml(value).replace(/\n/g, '<br>')}</td></tr>`);
    parts.push(`<table cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px">${rows.join('')}</table>`);
  }
  for (const l of c.lists ?? []) {
    parts.push(`<p style="margin:0 0 4px;font-weight:600">${escapeHtml(l.title)}</p><ul style="margin:0 0 16px;padding-left:20px">${l.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`);
  }
  if (c.actions?.length) {
    const buttons = c.actions.map((a, i) => {
      const look = i === 0 ? 'background:#1f5fbf;color:#fff;border:1px solid #1f5fbf' : 'background:#fff;color:#1f5fbf;border:1px solid #1f5fbf';
      return `<a href="${escapeHtml(a.url)}" style="display:inline-block;margin:0 8px 8px 0;padding:8px 16px;border-radius:4px;text-decoration:none;${look}">${escapeHtml(a.label)}</a>`;
    });
    parts.push(`<p style="margin:8px 0 16px">${buttons.join('')}</p>`);
  }
  if (c.note) parts.push(`<p style="margin:16px 0 0;font-size:12px;color:#777">${escapeHtml(c.note)}</p>`);
  return `<!doctype html><html><body style="margin:0;padding:24px;${FONT}font-size:14px;color:#222;line-height:1.45"><div style="max-width:640px">${parts.join('\n')}</div></body></html>`;
}

export function renderMail(c: MailContent): { text: string; html: string } {
  return { text: text(c), html: html(c) };
}
