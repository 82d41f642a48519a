import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../platform/canonical-json.js';
import { SETTINGS_NAMES, settingsCapture, type SettingsCapture } from './settings-capture.js';

// A settings write read back as a before-state capture: each shape the ledger's settings events
// were written in, and what a capture says when the earlier value is not in the event.

const AT = '2026-03-01T10:00:00.000Z';
const event = (action: string, data: Record<string, unknown>) => ({ seq: 41, action, occurredAt: AT, actor: { kind: 'user' as const, id: 'usr_1', name: 'rita@acme.dev', automation: null, trigger: null }, data });
const digest = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex');

describe('settingsCapture', () => {
  it.each<[string, ReturnType<typeof event>, Partial<SettingsCapture>]>([
    ['a field-by-field change keeps each earlier value',
      event('settings.changes_updated', { changed: { quorum: { from: 1, to: 2 }, completionRecipients: { from: [], to: ['ops@acme.dev'] } } }),
      { settings: 'changes', before: { quorum: 1, completionRecipients: [] }, after: { quorum: 2, completionRecipients: ['ops@acme.dev'] }, completeness: 'complete', prestateStatus: 'present', restorable: true, note: null }],
    ['a from/to pair keeps the earlier object',
      event('settings.flags_updated', { from: { ticketPattern: null }, to: { ticketPattern: '[A-Z]+-[0-9]+' } }),
      { settings: 'flags', before: { ticketPattern: null }, after: { ticketPattern: '[A-Z]+-[0-9]+' }, completeness: 'complete', restorable: true }],
    ['an explicit before wins over the other fields',
      event('settings.evidence_updated', { changed: ['aiEnabled'], aiEnabled: false, before: { aiEnabled: true }, after: { aiEnabled: false } }),
      { settings: 'evidence', before: { aiEnabled: true }, after: { aiEnabled: false }, completeness: 'complete', restorable: true }],
    ['settings named the other way round read the same',
      event('observed_settings.updated', { changed: ['pullIntervalSeconds'], pullIntervalSeconds: 60, before: { pullIntervalSeconds: 300 }, after: { pullIntervalSeconds: 60 } }),
      { settings: 'observed', before: { pullIntervalSeconds: 300 }, restorable: true }],
  ])('%s', (_name, e, expected) => {
    const c = settingsCapture(e)!;
    expect(c).toMatchObject({ seq: 41, action: e.action, method: 'settings_write', source: 'changeledger', capturedAt: AT, capturedBy: 'rita@acme.dev', ...expected });
    expect(c.sha256).toBe(digest(c.before));
    expect(c.sizeBytes).toBe(Buffer.byteLength(canonicalJson(c.before)));
  });

  it.each<[string, ReturnType<typeof event>, string]>([
    ['credentials are never in the ledger, before or after', event('settings.incidents_updated', { channelHost: 'hooks.slack.com', pagerdutySigning: true, changed: ['channelUrl'] }), 'these settings hold credentials'],
    ['an event written before earlier values were kept', event('settings.evidence_updated', { changed: ['aiEnabled'], aiEnabled: false }), 'written before the ledger kept'],
  ])('%s: not restorable, completeness and prestate unknown, and the note says why', (_name, e, note) => {
    expect(settingsCapture(e)).toMatchObject({ before: null, after: null, sha256: null, sizeBytes: 0, completeness: 'unknown', prestateStatus: 'unknown', restorable: false, note: expect.stringContaining(note) });
  });

  it('is null for an event that is not a settings write', () => {
    expect(settingsCapture(event('flag.updated', { from: { on: false }, to: { on: true } }))).toBeNull();
  });

  it('knows every settings write of the audit actions by name', () => {
    expect(SETTINGS_NAMES).toEqual(['alerts', 'catalogue', 'change_approvers', 'changes', 'evidence', 'flags', 'incidents', 'observed', 'unmanaged']);
  });
});
