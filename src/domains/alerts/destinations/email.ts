import { renderMail } from '../../../platform/mail/render.js';
import type { AlertRecord } from '../alert-types.js';
import { heldPrefix, occasionSummary, stateWord, summaryOf, type RelayContext } from './relay-message.js';

/**
 * One e-mail for a relay message: the subject names the first alert (and how many more), the
 * body lists each. On a held release the subject starts with the prefix.
 */
export function emailMessage(alerts: AlertRecord[], ctx: RelayContext): { subject: string; text: string; html: string } {
  const o = ctx.occasion;
  const first = alerts[0]!;
  const more = alerts.length > 1 ? ` (+${alerts.length - 1} more)` : '';
  const subject = `${o.kind === 'held-release' ? `${heldPrefix(o.change.title)} ` : ''}[${stateWord(first)}] ${summaryOf(first)}${more}`.slice(0, 250);
  const items = alerts.map((a) => `${stateWord(a)} ${a.subjectLabel}: ${occasionSummary(a, o)}${a.generatorURL ? ` — ${a.generatorURL}` : ''}`);
  const rendered = renderMail({
    heading: o.kind === 'held-release' ? `Still failing after change ${o.change.displayId}` : o.kind === 'test' ? 'A test from changeledger' : `${alerts.length} alert${alerts.length === 1 ? '' : 's'}`,
    lines: o.kind === 'held-release'
      ? [`These alerts were held while the change "${o.change.title}" ran and are still failing.`]
      : o.kind === 'test' ? ['This destination receives the alerts changeledger relays.'] : [],
    lists: [{ title: 'Alerts', items }],
    ...(o.kind === 'held-release' ? { actions: [{ label: 'Open the change', url: o.change.link }] } : {}),
    note: `You receive this as a recipient of the alert destination "${ctx.destinationName}".`,
  });
  return { subject, text: rendered.text, html: rendered.html };
}
