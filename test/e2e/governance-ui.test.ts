import { readFile } from 'node:fs/promises';
import { type Locator, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, signInAt } from '../support/browser.js';
import { apiSession, call, type ApiSession, type Json } from '../support/server-api.js';
import { runCli } from '../support/spawn-server.js';
import { shoot, uiSuite } from '../support/ui-suite.js';

// Governance in the built UI (dist/web, `npm run build`) against a real server in Debian's
// Chromium: a template drafted by the owner, refused when the owner certifies it (403, said
// beside the button), certified by a designated approver; the calendar showing a freeze made
// through the API and a change inside it, and an iCalendar file imported from the browser; an
// emergency registered through the form during a freeze, approved by two approvers, started past
// the freeze with the notice saying so, while a normal change in the same freeze is refused its
// start with the next opening in words. Settings → Change approvals keeps the class policy and
// the L1 approvals.

if (!hasChromium) console.warn('chromium not installed: governance UI test skipped');

const password = 'correct-horse-battery-staple';
const owner = { email: 'owner@example.test', name: 'Olivia Owner' };
const alice = { email: 'alice@acme.io', name: 'Alice Approver' };
const carol = { email: 'carol@acme.io', name: 'Carol Approver' };
const mia = { email: 'mia@example.test', name: 'Mia Requester' };
const estate = new URL('../fixtures/changes/estate.yaml', import.meta.url);

const session = (baseUrl: string, email: string): Promise<ApiSession> => apiSession(baseUrl, email, password);

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const icsStamp = (ms: number): string => iso(ms).replace(/[-:]/g, '');

// Two freezes ahead and one the calendar cancelled (skipped, with the reason).
function freezeCalendar(now: number): string {
  const day = 86_400_000;
  const at = (days: number, hour: number): number => Math.floor(now / day) * day + days * day + hour * 3_600_000;
  const event = (uid: string, summary: string, start: number, end: number, extra: string[] = []): string[] => [
    'BEGIN:VEVENT', `UID:${uid}`, `DTSTAMP:${icsStamp(now)}`, `DTSTART:${icsStamp(start)}`, `DTEND:${icsStamp(end)}`, `SUMMARY:${summary}`, ...extra, 'END:VEVENT',
  ];
  return [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//acme//release freezes//EN', 'X-WR-CALNAME:Release freezes',
    ...event('black-friday@acme.io', 'Black Friday freeze', at(10, 6), at(12, 22)),
    ...event('year-end@acme.io', 'Year-end close', at(20, 0), at(22, 0)),
    ...event('offsite@acme.io', 'Offsite freeze', at(15, 8), at(15, 18), ['STATUS:CANCELLED']),
    'END:VCALENDAR', '',
  ].join('\r\n');
}

describe('governance web UI', () => {
  const suite = uiSuite({
    name: 'governance-ui',
    owner: { email: owner.email, password, args: ['--name', owner.name] },
    prepare: async (dataDir) => {
      for (const who of [alice, carol, mia]) {
        const added = await runCli(['users', 'add', '--email', who.email, '--name', who.name, '--role', 'member', '--password-stdin', '--data', dataDir], { input: `${password}\n` });
        if (added.code !== 0) throw new Error(`users add failed (${String(added.code)}): ${added.stderr}`);
      }
      const made = await runCli(['tokens', 'create', '--user', mia.email, '--name', 'deploy', '--scopes', 'changes:read,changes:write', '--json', '--data', dataDir]);
      if (made.code !== 0) throw new Error(`tokens create failed (${String(made.code)}): ${made.stderr}`);
    },
    ready: async (server) => {
      const s = await session(server.url, owner.email);
      await call(server.url, s, 'POST', '/api/catalog/imports?format=changeledger&source=cmdb', await readFile(estate, 'utf8'), 'application/yaml');
      // Alice and Carol are the designated approvers; the quorum stays 2.
      const org = (await call(server.url, s, 'GET', '/api/session')).organization.id as string;
      const members = (await call(server.url, s, 'GET', `/api/organizations/${org}/members`)).members as Array<{ userId: string; email: string }>;
      const id = (email: string): string => members.find((m) => m.email === email)!.userId;
      await call(server.url, s, 'PUT', `/api/organizations/${org}/change-approvers`, { userIds: [id(alice.email), id(carol.email)], criticalUserIds: [] });
    },
    // Five processes open the embedded database before Chromium starts: a guard against a hang only.
    timeoutMs: 240_000,
  });

  const open = async (email: string, path: string, width = 1440): Promise<Page> => {
    const { server, browser } = suite();
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAt(page, server.url, path, email, password);
    return page;
  };
  const templateRow = (page: Page, name: string): Locator => page.locator(`[data-testid="template-row"][data-name="${name}"]`);

  it.skipIf(!hasChromium)(
    'templates: the owner drafts one, is refused certifying their own (403 beside the button), an approver certifies it',
    async () => {
      const name = 'Restart a checkout pod';
      const page = await open(owner.email, '/change-templates');
      await page.getByTestId('templates-empty').waitFor();
      await page.getByTestId('template-new').click();
      const form = page.getByTestId('template-form');
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('Kind', { exact: true }).selectOption('config');
      await form.getByLabel('Services', { exact: true }).fill('svc:checkout');
      await form.getByLabel('Environments', { exact: true }).fill('production');
      await form.getByLabel('Largest blast radius (services)').fill('3');
      await form.getByLabel('Description (optional)').fill('kubectl rollout restart of one deployment; no schema or config change');
      await page.getByTestId('template-save').click();
      const row = templateRow(page, name);
      await row.waitFor();
      expect(await page.getByTestId('templates-notice').textContent()).toContain(`Drafted “${name}” (version 1)`);
      expect(await row.getByTestId('template-state').textContent()).toBe('draft');
      expect(await row.getByTestId('template-version').textContent()).toBe('v1');
      expect(await row.getByTestId('template-author').textContent()).toContain(owner.email);
      expect(await row.getByTestId('template-certifier').textContent()).toBe('—');

      // The author's own certification: the server refuses it (403), and the page says why beside the button.
      const certify = row.getByTestId('template-certify');
      expect(await certify.getAttribute('title')).toBe('You drafted this version: a different owner or approver must certify it');
      await certify.click();
      const refused = page.locator(`[data-testid="template-sub-row"][data-template-id="${(await row.getAttribute('data-template-id'))!}"]`).getByTestId('template-certify-error');
      await refused.waitFor();
      expect(await refused.textContent()).toBe('Certify refused: you drafted this version of the template: a different owner or approver must certify it');
      expect(await row.getByTestId('template-state').textContent()).toBe('draft');
      await shoot(page, 'governance-template-own-certify-refused.png');
      await page.context().close();

      // A designated approver certifies it: the chip reads certified, the certifier is named.
      const approver = await open(alice.email, '/change-templates');
      const row2 = templateRow(approver, name);
      await row2.waitFor();
      expect(await approver.getByTestId('template-new').count()).toBe(0);
      expect(await row2.getByTestId('template-edit').count()).toBe(0);
      await row2.getByTestId('template-certify').click();
      await approver.locator(`[data-testid="template-row"][data-name="${name}"][data-state="certified"]`).waitFor();
      expect(await row2.getByTestId('template-state').textContent()).toBe('certified');
      expect(await row2.getByTestId('template-certifier').textContent()).toContain(alice.email);
      expect(await approver.getByTestId('templates-notice').textContent()).toContain(`Certified “${name}” version 1: changes it covers are standard.`);
      expect(await row2.getByTestId('template-certify').count()).toBe(0);
      await shoot(approver, 'governance-template-certified.png');
      await approver.context().close();

      // An edit is a new version, a draft again — said before saving; a withdrawal needs its reason.
      const again = await open(owner.email, '/change-templates');
      const row3 = templateRow(again, name);
      await row3.getByTestId('template-edit').click();
      expect(await again.getByTestId('template-edit-warning').textContent()).toContain('Saving makes version 2, a draft: it is no longer certified');
      await again.getByTestId('template-form').getByLabel('Largest blast radius (services)').fill('4');
      await again.getByTestId('template-save').click();
      await again.locator(`[data-testid="template-row"][data-name="${name}"][data-state="draft"]`).waitFor();
      expect(await row3.getByTestId('template-version').textContent()).toBe('v2');
      expect(await row3.getByTestId('template-certifier').textContent()).toBe('—');
      await row3.getByTestId('template-withdraw').click();
      await again.getByTestId('template-withdraw-reason').fill('no');
      await again.getByTestId('template-withdraw-confirm').click();
      expect(await again.locator('[data-testid="template-withdraw-form"] [data-testid="field-error"][data-field="reason"]').textContent()).toBe('Say why the template is withdrawn (at least 5 characters).');
      await again.getByTestId('template-withdraw-reason').fill('The restart runbook changed: INC-2231');
      await again.getByTestId('template-withdraw-confirm').click();
      await again.locator(`[data-testid="template-row"][data-name="${name}"][data-state="withdrawn"]`).waitFor();
      expect(await row3.getByTestId('template-withdrawn-reason').textContent()).toBe('Withdrawn: “The restart runbook changed: INC-2231”');
      await shoot(again, 'governance-template-withdrawn.png');
      await again.context().close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    'calendar: a freeze made through the API and a change inside it; an .ics file imported from the browser creates 2 and says what it skipped',
    async () => {
      const { server } = suite();
      const o = await session(server.url, owner.email);
      const now = Date.now();
      const freeze = await call(server.url, o, 'POST', '/api/change-windows', {
        name: 'Ledger migration freeze', kind: 'freeze', schedule: { type: 'once', start: iso(now - 3_600_000), end: iso(now + 4 * 3_600_000) },
        scope: { type: 'services', services: ['svc:ledger-writer'] },
      });
      const m = await session(server.url, mia.email);
      const made = await call(server.url, m, 'POST', '/api/changes', {
        title: 'Tune the ledger-writer pool', kind: 'config', components: [{ query: 'ledger-writer' }], windowStart: iso(now + 5 * 60_000), windowEnd: iso(now + 65 * 60_000),
      });
      expect(made.windows.conflicts.map((c: Json) => c.conflict)).toEqual(['freeze_overlaps']);

      const page = await open(owner.email, '/change-calendar');
      await page.getByTestId('calendar-grid').waitFor();
      const occurrence = page.locator(`[data-testid="calendar-occurrence"][data-window-id="${freeze.id as string}"]`).first();
      await occurrence.waitFor();
      expect(await occurrence.getAttribute('data-kind')).toBe('freeze');
      expect(await occurrence.textContent()).toContain('Freeze');
      expect(await occurrence.textContent()).toContain('Ledger migration freeze');
      const change = page.locator(`[data-testid="calendar-change"][data-change-id="${made.change.id as string}"]`).first();
      expect(await change.getByTestId('calendar-change-link').textContent()).toBe(made.change.displayId);
      expect(await change.getByTestId('calendar-change-title').textContent()).toBe('Tune the ledger-writer pool');
      expect(await change.getByTestId('change-class').textContent()).toBe('normal');
      expect(await change.getByTestId('change-tier').textContent()).toBe('L2');
      // The day the freeze covers says so in words, not by colour alone.
      expect(await page.getByTestId('legend-freeze').textContent()).toBe('Freeze');
      const windowRow = page.locator(`[data-testid="window-row"][data-window-id="${freeze.id as string}"]`);
      expect(await windowRow.getByTestId('window-kind').textContent()).toBe('Freeze');
      expect(await windowRow.getByTestId('window-scope').textContent()).toBe('services svc:ledger-writer');
      await shoot(page, 'governance-calendar.png');

      // An .ics file read in the browser, sent as text under a feed name.
      const importer = page.getByTestId('window-import');
      await importer.getByTestId('ics-source-file').check();
      await importer.getByLabel('Calendar file (.ics)').setInputFiles({ name: 'release-freezes.ics', mimeType: 'text/calendar', buffer: Buffer.from(freezeCalendar(now)) });
      await importer.getByLabel('Feed name').fill('release-freezes');
      await importer.getByLabel('Time zone').fill('Europe/Berlin');
      await importer.getByTestId('ics-import').click();
      const summary = importer.getByTestId('ics-summary');
      await summary.waitFor();
      expect(await summary.getByTestId('ics-created').textContent()).toBe('2');
      expect(await summary.getByTestId('ics-updated').textContent()).toBe('0');
      expect(await summary.getByTestId('ics-removed').textContent()).toBe('0');
      expect(await summary.getByTestId('ics-skipped').textContent()).toBe('1');
      expect(await summary.getByTestId('ics-skipped-event').textContent()).toBe('Offsite freeze: it was cancelled in the calendar (STATUS:CANCELLED), so it freezes nothing');
      await page.locator('[data-testid="window-row"][data-name="Black Friday freeze"]').waitFor();
      expect(await page.locator('[data-testid="window-row"][data-name="Year-end close"]').count()).toBe(1);
      await shoot(page, 'governance-calendar-import.png');

      // A bad rule is refused under its field.
      const form = page.getByTestId('window-form');
      await form.getByLabel('Name', { exact: true }).fill('Nightly batch');
      await form.getByLabel('Repeat rule (RRULE)').fill('FREQ=SOMETIMES');
      await form.getByLabel('Time zone').fill('Europe/Berlin');
      await page.getByTestId('window-add').click();
      const ruleError = form.locator('[data-testid="field-error"][data-field="schedule.rrule"]');
      await ruleError.waitFor();
      expect(await form.getByLabel('Repeat rule (RRULE)').getAttribute('aria-invalid')).toBe('true');
      await page.context().close();
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    'an emergency registered during a freeze passes it once two approvers approved; a normal change is refused with the next opening',
    async () => {
      const { server } = suite();
      const o = await session(server.url, owner.email);
      const now = Date.now();
      const freezeEnd = now + 150 * 60_000;
      await call(server.url, o, 'POST', '/api/change-windows', {
        name: 'Storefront release freeze', kind: 'freeze', schedule: { type: 'once', start: iso(now - 30 * 60_000), end: iso(freezeEnd) },
        scope: { type: 'services', services: ['svc:storefront'] },
      });

      // Mia registers the emergency through the form: the switch reveals the reason and the incident.
      const page = await open(mia.email, '/changes/new');
      await page.getByLabel('Title', { exact: true }).fill('Hotfix the storefront basket');
      await page.getByLabel('Components', { exact: true }).fill('storefront');
      await page.locator('[data-testid="resolved"][data-key="svc:storefront"]').waitFor();
      await page.getByTestId('window-mode-window').check();
      expect(await page.getByTestId('change-emergency-fields').count()).toBe(0);
      await page.getByTestId('change-emergency').check();
      await page.getByLabel('Emergency reason').fill('Every basket update fails since 14:02');
      await page.getByLabel('Incident', { exact: true }).fill('INC-4411');
      await shoot(page, 'governance-register-emergency.png');
      await page.getByTestId('change-submit').click();
      await page.waitForURL((url) => /^\/changes\/chg_[0-9a-f]+$/.test(url.pathname));
      const emergencyId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
      const registered = page.getByTestId('registered-governance');
      await registered.waitFor();
      expect(await registered.getByTestId('registered-class-chip').textContent()).toBe('emergency');
      expect(await registered.getByTestId('registered-tier-chip').textContent()).toBe('L3');
      expect(await registered.getByTestId('registered-policy').textContent()).toBe('L3: 2 distinct approvers');
      const conflict = registered.locator('[data-testid="registered-conflict"][data-conflict="freeze_overlaps"]');
      expect(await conflict.textContent()).toMatch(/^The freeze “Storefront release freeze” runs from .* during the change\.$/);
      const header = page.getByTestId('change-header');
      expect(await header.getByTestId('change-class').textContent()).toBe('emergency');
      expect(await header.getByTestId('change-class').getAttribute('title')).toBe('declared an emergency: Every basket update fails since 14:02 (linked to INC-4411)');
      expect(await header.getByTestId('change-tier').textContent()).toBe('L3');
      expect(await page.getByTestId('change-emergency-reason').textContent()).toBe('Every basket update fails since 14:02');
      expect(await page.getByTestId('change-emergency-link').textContent()).toBe('INC-4411');
      await page.getByTestId('change-policy').filter({ hasText: 'L3' }).waitFor();
      await shoot(page, 'governance-registered-emergency.png');

      // Alice and Carol approve it in the UI.
      for (const [who, notice] of [[alice, 'Your approval is recorded (1 of 2).'], [carol, 'Approved: the quorum is reached (2 of 2).']] as const) {
        const ap = await open(who.email, `/changes/${emergencyId}`);
        await ap.getByTestId('approve').click();
        await ap.getByTestId('change-notice').filter({ hasText: notice }).waitFor();
        await ap.context().close();
      }

      // Mia starts it inside the freeze: it starts, and the page says which window it passed, when, with how many approvals.
      await page.reload();
      await page.getByTestId('action-start').click();
      await page.getByTestId('change-notice').filter({ hasText: 'Started — now active.' }).waitFor();
      const bypassed = page.getByTestId('window-bypassed');
      expect(await bypassed.textContent()).toMatch(/^Window bypassed: this emergency started during the freeze “Storefront release freeze” at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z, approved by 2 approvers\.$/);
      expect(await page.getByTestId('governance-bypass').textContent()).toContain('Passed the freeze “Storefront release freeze”');
      await shoot(page, 'governance-emergency-bypassed.png');

      // A normal change in the same freeze: an approver's reclassification without a reason is refused under the note.
      const m = await session(server.url, mia.email);
      const normal = await call(server.url, m, 'POST', '/api/changes', {
        title: 'Storefront 5.2 rollout', kind: 'deploy', components: [{ query: 'storefront' }], windowStart: iso(now + 10 * 60_000), windowEnd: iso(now + 70 * 60_000),
      });
      const normalId = normal.change.id as string;
      expect(normal.governance).toMatchObject({ changeClass: 'normal', riskTier: 'L2' });
      const ap = await open(alice.email, `/changes/${normalId}`);
      await ap.getByTestId('reclassify-open').click();
      await ap.getByLabel('Class', { exact: true }).selectOption('standard');
      await ap.getByLabel('Why (at least 5 characters)').fill('ok');
      await ap.getByTestId('reclassify-submit').click();
      const noteError = ap.locator('[data-testid="reclassify-form"] [data-testid="field-error"][data-field="note"]');
      await noteError.waitFor();
      expect(await noteError.textContent()).toBe('say why in the note (at least 5 characters)');
      await ap.context().close();
      for (const who of [alice, carol]) await call(server.url, await session(server.url, who.email), 'POST', `/api/changes/${normalId}/approve`, {});

      // Its start is refused: the server's message, and when it may start in words.
      await page.goto(new URL(`/changes/${normalId}`, server.url).toString());
      await page.getByTestId('action-start').click();
      const refusal = page.getByTestId('change-window-refusal');
      await refusal.waitFor();
      expect(await refusal.getByTestId('change-window-refusal-message').textContent()).toMatch(/^The change cannot start now: the freeze “Storefront release freeze” runs until .*; it may start from \S+$/);
      const next = new Date(freezeEnd);
      const words = `${next.toLocaleDateString('en-GB', { weekday: 'long', timeZone: 'UTC' })} ${String(next.getUTCDate())} ${next.toLocaleDateString('en-GB', { month: 'long', timeZone: 'UTC' })} ${String(next.getUTCFullYear())}, ${next.toISOString().slice(11, 16)} UTC`;
      expect(await refusal.getByTestId('change-next-opening').textContent()).toMatch(new RegExp(`^It may start from ${words} \\(in 2 h( \\d+ min)?\\)\\.$`));
      expect(await page.getByTestId('change-header').getByTestId('change-status').getAttribute('data-status')).toBe('approved');
      await shoot(page, 'governance-start-refused.png');

      // The list: each planned change with its class and tier, the emergency marked as having passed a window.
      await page.goto(new URL('/changes', server.url).toString());
      const emergencyRow = page.locator(`[data-testid="change-row"][data-change-id="${emergencyId}"]`);
      await emergencyRow.waitFor();
      expect(await emergencyRow.getByTestId('change-class').textContent()).toBe('emergency');
      expect(await emergencyRow.getByTestId('change-tier').textContent()).toBe('L3');
      expect(await emergencyRow.getByTestId('window-bypassed-marker').textContent()).toBe('window bypassed');
      const normalRow = page.locator(`[data-testid="change-row"][data-change-id="${normalId}"]`);
      expect(await normalRow.getByTestId('change-class').textContent()).toBe('normal');
      expect(await normalRow.getByTestId('change-tier').textContent()).toBe('L2');
      expect(await normalRow.getByTestId('window-bypassed-marker').count()).toBe(0);
      await shoot(page, 'governance-changes-list.png');
      await page.context().close();
    },
    180_000,
  );

  it.skipIf(!hasChromium)(
    'settings: the change class policy and the L1 approvals are kept, with what they mean',
    async () => {
      const page = await open(owner.email, '/settings/changes');
      const form = page.getByTestId('change-settings-form');
      await form.waitFor();
      const policy = page.getByLabel('Change class policy', { exact: true });
      const l1 = page.getByLabel('L1 approvals', { exact: true });
      expect(await policy.inputValue()).toBe('normal_by_default');
      expect(await l1.inputValue()).toBe('0');
      await policy.selectOption('standard_by_default');
      expect(await form.textContent()).toContain('A change is standard whenever a certified template covers it');
      await l1.fill('1');
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-saved').waitFor();
      await page.reload();
      await form.waitFor();
      expect(await page.getByLabel('Change class policy', { exact: true }).inputValue()).toBe('standard_by_default');
      expect(await page.getByLabel('L1 approvals', { exact: true }).inputValue()).toBe('1');
      // Out of range: refused under the field.
      await page.getByLabel('L1 approvals', { exact: true }).fill('26');
      await page.getByTestId('settings-save').click();
      await form.locator('[data-testid="field-error"][data-field="l1Approvals"]').waitFor();
      await shoot(page, 'governance-settings.png');
      await page.context().close();
    },
    120_000,
  );
});
