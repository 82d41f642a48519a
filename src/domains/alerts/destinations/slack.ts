import type { AlertRecord } from '../alert-types.js';
import { occasionSummary, stateWord, type RelayContext } from './relay-message.js';

/**
 * A Slack-compatible incoming-webhook body ({text}; Mattermost and Rocket.Chat read the same):
 * one line per alert, its state, its subject by name and its summary (prefixed on a held release).
 */
export function slackBody(alerts: AlertRecord[], ctx: RelayContext): string {
  const o = ctx.occasion;
  const lines = alerts.map((a) => {
    const link = a.generatorURL ? ` <${a.generatorURL}|source>` : '';
    return `${occasionSummary(a, o)} — *${stateWord(a)}* ${a.subjectLabel}${link}`;
  });
  if (o.kind === 'held-release') lines.push(`Change ${o.change.displayId}: ${o.change.link}`);
  return JSON.stringify({ text: lines.join('\n') });
}
