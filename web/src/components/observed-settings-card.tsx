import { useEffect, useState, type SubmitEvent } from 'react';
import { observedApi } from '../api/observed-client';
import type { ObservedSettings, ObservedSettingsPatch } from '../api/observed-types';
import { errorField, errorMessage } from '../lib/errors';
import { FieldError } from './field-error';

type Draft = { pullIntervalSeconds: string; ciNamespaces: string; serviceMap: string; resourceMap: string };
type Problem = { field: string; message: string };

function draftOf(s: ObservedSettings): Draft {
  return {
    pullIntervalSeconds: String(s.pullIntervalSeconds),
    ciNamespaces: s.ciNamespaces.join('\n'),
    serviceMap: Object.entries(s.serviceMap).map(([g, svc]) => `${g} = ${svc}`).join('\n'),
    resourceMap: Object.entries(s.resourceMap).map(([g, svc]) => `${g} = ${Array.isArray(svc) ? svc.join(', ') : svc}`).join('\n'),
  };
}

// "pattern = service" a line; the map's own rules (globs, services, counts) are the server's.
function readMap(text: string, field: string): { map: Record<string, string[]> } | { problem: Problem } {
  const map: Record<string, string[]> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const at = line.lastIndexOf('=');
    const glob = at < 0 ? '' : line.slice(0, at).trim();
    const services = at < 0 ? [] : line.slice(at + 1).split(',').map((x) => x.trim()).filter((x) => x !== '');
    if (glob === '' || services.length === 0) return { problem: { field, message: `Line ${String(i + 1)} needs a pattern, an equals sign and a service: shop/checkout-* = checkout-api` } };
    map[glob] = services;
  }
  return { map };
}

function patchOf(d: Draft, was: ObservedSettings): { patch: ObservedSettingsPatch } | { problem: Problem } {
  const interval = Number(d.pullIntervalSeconds.trim());
  if (d.pullIntervalSeconds.trim() === '' || !Number.isInteger(interval)) return { problem: { field: 'pullIntervalSeconds', message: 'The pull interval is a whole number of seconds (0 turns the scheduled pull off).' } };
  const services = readMap(d.serviceMap, 'serviceMap');
  if ('problem' in services) return services;
  const resources = readMap(d.resourceMap, 'resourceMap');
  if ('problem' in resources) return resources;
  const serviceMap: Record<string, string> = {};
  for (const [g, svcs] of Object.entries(services.map)) {
    if (svcs.length !== 1) return { problem: { field: 'serviceMap', message: `A repository belongs to one service: ${g} names ${String(svcs.length)}.` } };
    serviceMap[g] = svcs[0] ?? '';
  }
  const resourceMap: Record<string, string | string[]> = {};
  for (const [g, svcs] of Object.entries(resources.map)) resourceMap[g] = svcs.length === 1 ? (svcs[0] ?? '') : svcs;
  const next: Required<ObservedSettingsPatch> = {
    pullIntervalSeconds: interval,
    ciNamespaces: d.ciNamespaces.split(/[\n,]/).map((x) => x.trim()).filter((x) => x !== ''),
    serviceMap,
    resourceMap,
  };
  // Only what changed goes out: a map edit relinks the last 48 hours, so an untouched map is not sent.
  const patch: ObservedSettingsPatch = {};
  for (const key of Object.keys(next) as Array<keyof ObservedSettingsPatch>) {
    if (JSON.stringify(next[key]) !== JSON.stringify(was[key])) Object.assign(patch, { [key]: next[key] });
  }
  return { patch };
}

// The organisation's settings of observed changes: how often sources are pulled, which
// Kubernetes namespaces hold CI service accounts, and the maps that link changes to services.
export function ObservedSettingsCard({ settings, canEdit, onSaved }: { settings: ObservedSettings; canEdit: boolean; onSaved: (s: ObservedSettings) => void }) {
  const [d, setD] = useState<Draft>(() => draftOf(settings));
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => { setD(draftOf(settings)); }, [settings]);

  const submit = async (event: SubmitEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setSaved(null);
    const read = patchOf(d, settings);
    if ('problem' in read) {
      setProblem(read.problem);
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      const answer = await observedApi.updateSettings(read.patch);
      onSaved(answer);
      const relinked = answer.relinked ?? null;
      setSaved(relinked === null ? 'Saved.' : `Saved; ${relinked.toLocaleString('en-US')} ${relinked === 1 ? 'record' : 'records'} of the last 48 hours relinked.`);
    } catch (caught) {
      setProblem({ field: errorField(caught) ?? 'form', message: errorMessage(caught) });
    } finally {
      setSaving(false);
    }
  };

  const field = problem?.field ?? null;
  const message = problem?.message ?? null;
  const set = (patch: Partial<Draft>): void => { setSaved(null); setD({ ...d, ...patch }); };
  const named = ['pullIntervalSeconds', 'ciNamespaces', 'serviceMap', 'resourceMap'];
  const invalid = (name: string): boolean => field !== null && (field === name || field.startsWith(`${name}.`));
  const elsewhere = field !== null && !named.some((n) => field === n || field.startsWith(`${n}.`));

  return (
    <section className="card observed-settings" data-testid="observed-settings" aria-labelledby="observed-settings-title">
      <h2 id="observed-settings-title">Observed changes: settings</h2>
      <form onSubmit={(e) => void submit(e)} data-testid="observed-settings-form">
        <fieldset disabled={!canEdit || saving} className="plain-fieldset">
          <div className="field">
            <label htmlFor="obs-interval">Pull every (seconds)</label>
            <input id="obs-interval" type="number" min={0} value={d.pullIntervalSeconds} onChange={(e) => { set({ pullIntervalSeconds: e.target.value }); }} aria-invalid={invalid('pullIntervalSeconds')} data-testid="obs-interval" />
            <span className="muted small">900 by default; 0 turns the scheduled pull off for every connection. Each pull re-reads 20 minutes before where the last one stopped.</span>
            <FieldError field={field} name="pullIntervalSeconds" message={message} />
          </div>
          <div className="field">
            <label htmlFor="obs-ci">CI namespaces</label>
            <textarea id="obs-ci" rows={4} value={d.ciNamespaces} onChange={(e) => { set({ ciNamespaces: e.target.value }); }} spellCheck={false} aria-invalid={invalid('ciNamespaces')} data-testid="obs-ci" />
            <span className="muted small">One a line. A service account in one of these is a pipeline and its writes are recorded; other <code>system:</code> identities are plumbing. argocd and the kube-* namespaces can never be listed.</span>
            <FieldError field={field} name="ciNamespaces" message={message} />
          </div>
          <div className="field">
            <label htmlFor="obs-service-map">Repository map</label>
            <textarea id="obs-service-map" rows={3} value={d.serviceMap} placeholder="shop/checkout-* = checkout-api" onChange={(e) => { set({ serviceMap: e.target.value }); }} spellCheck={false} aria-invalid={invalid('serviceMap')} data-testid="obs-service-map" />
            <span className="muted small">A repository pattern and the service its changes belong to, one a line; used when the event names no service of its own.</span>
            <FieldError field={field} name="serviceMap" message={message} />
          </div>
          <div className="field">
            <label htmlFor="obs-resource-map">Resource map</label>
            <textarea id="obs-resource-map" rows={3} value={d.resourceMap} placeholder="arn:aws:rds:*:*:db:orders-* = orders-api, billing-api" onChange={(e) => { set({ resourceMap: e.target.value }); }} spellCheck={false} aria-invalid={invalid('resourceMap')} data-testid="obs-resource-map" />
            <span className="muted small">A resource pattern and the services it also links to (up to 10), one a line, up to 200 lines. It only adds links. Saving a map relinks the last 48 hours.</span>
            <FieldError field={field} name="resourceMap" message={message} />
          </div>
          {elsewhere && <p className="field-error small" role="alert" data-testid="observed-settings-error">{message}</p>}
          {canEdit && (
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" data-testid="observed-settings-save">{saving ? 'Saving…' : 'Save'}</button>
              {saved !== null && <span className="muted small" role="status" data-testid="observed-settings-saved">{saved}</span>}
            </div>
          )}
        </fieldset>
      </form>
    </section>
  );
}
