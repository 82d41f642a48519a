import type { ReactNode } from 'react';
import { fieldMatches } from '../lib/errors';
import {
  MASK,
  MAX_LABELS,
  MIN_WEBHOOK_SECRET,
  secretNoun,
  type AsanaDraft,
  type JiraDraft,
  type ServiceNowDraft,
  type TicketingDraft,
  type WebhookDraft,
} from '../lib/ticketing';
import type { TicketKind } from '../api/types';
import { FieldError } from './field-error';

// The fields of each ticket destination kind. Every input is named like the server's field
// (`ticketing.projectKey`), so a 400 lands under the input it names.

export type FieldProps = {
  // The server's error and the field it names.
  error: string | null;
  field: string | null;
  // Whether a secret of this kind is stored (the input then holds ••••).
  hasSecret: boolean;
};

type InputProps = {
  kind: TicketKind;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  placeholder?: string;
  secret?: boolean;
  mono?: boolean;
  wide?: boolean;
  errors: FieldProps;
};

function Input({ kind, name, label, value, onChange, hint, placeholder, secret = false, mono = false, wide = false, errors }: InputProps) {
  const id = `ticketing-${kind}-${name}`;
  const full = `ticketing.${name}`;
  return (
    <div className={wide ? 'field field-span-2' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={secret ? 'password' : 'text'}
        className={mono ? 'mono-input' : undefined}
        value={value}
        placeholder={placeholder}
        autoComplete={secret ? 'new-password' : 'off'}
        spellCheck={false}
        onChange={(e) => { onChange(e.target.value); }}
        aria-invalid={fieldMatches(errors.field, full) ? true : undefined}
        data-testid={`ticketing-${name}`}
      />
      {hint !== undefined && <span className="muted small">{hint}</span>}
      <FieldError field={errors.field} name={full} message={errors.error} />
    </div>
  );
}

// Under a secret: its rule, and how to keep the stored one (the input then holds ••••).
function SecretHint({ kind, hasSecret, rule }: { kind: TicketKind; hasSecret: boolean; rule?: string }) {
  // The server keeps a stored secret only for the destination it was entered for.
  const same = kind === 'jira' || kind === 'servicenow' ? 'host and account stay' : 'host stays';
  const keep = hasSecret ? `Leave as ${MASK} to keep the stored ${secretNoun[kind]} while the ${same} the same.` : rule === undefined ? 'Stored sealed; never shown again.' : null;
  return <span data-testid="ticketing-secret-hint">{[rule, keep].filter((x) => x !== undefined && x !== null).join(' ')}</span>;
}

function Check({ kind, name, label, checked, onChange, errors }: { kind: TicketKind; name: string; label: string; checked: boolean; onChange: (v: boolean) => void; errors: FieldProps }) {
  const id = `ticketing-${kind}-${name}`;
  return (
    <div className="field field-span-2">
      <span className="check">
        <input id={id} type="checkbox" checked={checked} onChange={(e) => { onChange(e.target.checked); }} data-testid={`ticketing-${name}`} />
        <label htmlFor={id}>{label}</label>
      </span>
      <FieldError field={errors.field} name={`ticketing.${name}`} message={errors.error} />
    </div>
  );
}

function Select<T extends string>({ kind, name, label, value, options, onChange, hint, errors }: {
  kind: TicketKind; name: string; label: string; value: T; options: readonly { value: T; label: string }[]; onChange: (v: T) => void; hint?: string; errors: FieldProps;
}) {
  const id = `ticketing-${kind}-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => { onChange(e.target.value as T); }} aria-invalid={fieldMatches(errors.field, `ticketing.${name}`) ? true : undefined} data-testid={`ticketing-${name}`}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint !== undefined && <span className="muted small">{hint}</span>}
      <FieldError field={errors.field} name={`ticketing.${name}`} message={errors.error} />
    </div>
  );
}

function JiraFields({ d, set, errors }: { d: JiraDraft; set: (p: Partial<JiraDraft>) => void; errors: FieldProps }) {
  const cloud = d.deployment === 'cloud';
  return (
    <>
      <Input kind="jira" name="baseUrl" label="Base URL" value={d.baseUrl} onChange={(v) => { set({ baseUrl: v }); }} placeholder="https://acme.atlassian.net" mono wide errors={errors} />
      <Select
        kind="jira"
        name="deployment"
        label="Deployment"
        value={d.deployment}
        options={[{ value: 'cloud', label: 'Cloud' }, { value: 'datacenter', label: 'Data Center' }]}
        onChange={(v) => { set({ deployment: v }); }}
        hint={cloud ? 'An e-mail and its API token (REST v3).' : 'A personal access token (REST v2).'}
        errors={errors}
      />
      {cloud ? (
        <Input kind="jira" name="email" label="E-mail" value={d.email} onChange={(v) => { set({ email: v }); }} placeholder="changes-bot@acme.io" hint="The account the API token belongs to." errors={errors} />
      ) : (
        <div className="field" />
      )}
      <Input
        kind="jira"
        name="apiToken"
        label={cloud ? 'API token' : 'Personal access token'}
        value={d.apiToken}
        onChange={(v) => { set({ apiToken: v }); }}
        secret
        hint={<SecretHint kind="jira" hasSecret={errors.hasSecret} />}
        errors={errors}
      />
      <Input kind="jira" name="projectKey" label="Project key" value={d.projectKey} onChange={(v) => { set({ projectKey: v }); }} placeholder="OPS" mono hint="Capital letters, digits and _, such as OPS." errors={errors} />
      <Input kind="jira" name="issueType" label="Issue type" value={d.issueType} onChange={(v) => { set({ issueType: v }); }} placeholder="Task" hint="Default Task." errors={errors} />
      <Input
        kind="jira"
        name="labels"
        label="Labels (optional)"
        value={d.labels}
        onChange={(v) => { set({ labels: v }); }}
        placeholder="change, changeledger"
        hint={`Comma-separated, at most ${String(MAX_LABELS)}, no spaces inside a label.`}
        errors={errors}
      />
    </>
  );
}

function AsanaFields({ d, set, errors }: { d: AsanaDraft; set: (p: Partial<AsanaDraft>) => void; errors: FieldProps }) {
  return (
    <>
      <Input kind="asana" name="apiUrl" label="API URL" value={d.apiUrl} onChange={(v) => { set({ apiUrl: v }); }} placeholder="https://app.asana.com" mono hint="Default https://app.asana.com." errors={errors} />
      <Input kind="asana" name="token" label="Personal access token" value={d.token} onChange={(v) => { set({ token: v }); }} secret hint={<SecretHint kind="asana" hasSecret={errors.hasSecret} />} errors={errors} />
      <Input kind="asana" name="workspaceGid" label="Workspace gid" value={d.workspaceGid} onChange={(v) => { set({ workspaceGid: v }); }} placeholder="1201234567890" mono errors={errors} />
      <Input kind="asana" name="projectGid" label="Project gid" value={d.projectGid} onChange={(v) => { set({ projectGid: v }); }} placeholder="1209876543210" mono errors={errors} />
      <Check kind="asana" name="completeOnReport" label="Complete the task when the report is in" checked={d.completeOnReport} onChange={(v) => { set({ completeOnReport: v }); }} errors={errors} />
    </>
  );
}

function ServiceNowFields({ d, set, errors }: { d: ServiceNowDraft; set: (p: Partial<ServiceNowDraft>) => void; errors: FieldProps }) {
  return (
    <>
      <Input kind="servicenow" name="instanceUrl" label="Instance URL" value={d.instanceUrl} onChange={(v) => { set({ instanceUrl: v }); }} placeholder="https://acme.service-now.com" mono wide errors={errors} />
      <Input kind="servicenow" name="username" label="Username" value={d.username} onChange={(v) => { set({ username: v }); }} errors={errors} />
      <Input kind="servicenow" name="password" label="Password" value={d.password} onChange={(v) => { set({ password: v }); }} secret hint={<SecretHint kind="servicenow" hasSecret={errors.hasSecret} />} errors={errors} />
      <Select
        kind="servicenow"
        name="changeType"
        label="Change type"
        value={d.changeType}
        options={[{ value: 'normal', label: 'Normal' }, { value: 'standard', label: 'Standard' }]}
        onChange={(v) => { set({ changeType: v }); }}
        hint="The change request model tickets are opened with."
        errors={errors}
      />
      <Input kind="servicenow" name="assignmentGroup" label="Assignment group (optional)" value={d.assignmentGroup} onChange={(v) => { set({ assignmentGroup: v }); }} errors={errors} />
      <Check kind="servicenow" name="closeOnReport" label="Close the change request when the report is in" checked={d.closeOnReport} onChange={(v) => { set({ closeOnReport: v }); }} errors={errors} />
    </>
  );
}

function WebhookFields({ d, set, errors }: { d: WebhookDraft; set: (p: Partial<WebhookDraft>) => void; errors: FieldProps }) {
  return (
    <>
      <Input kind="webhook" name="url" label="URL" value={d.url} onChange={(v) => { set({ url: v }); }} placeholder="https://bridge.acme.io/changeledger" mono wide hint="Where change.ticket.created and change.ticket.updated are POSTed; answer the first with {id, key, url}." errors={errors} />
      <Input
        kind="webhook"
        name="secret"
        label="Signing secret"
        value={d.secret}
        onChange={(v) => { set({ secret: v }); }}
        secret
        wide
        hint={<SecretHint kind="webhook" hasSecret={errors.hasSecret} rule={`At least ${String(MIN_WEBHOOK_SECRET)} characters; signs every delivery.`} />}
        errors={errors}
      />
    </>
  );
}

// The fields of the chosen kind; nothing for None.
export function TicketingFields({ draft, update, errors }: { draft: TicketingDraft; update: (patch: Partial<TicketingDraft>) => void; errors: FieldProps }) {
  switch (draft.kind) {
    case 'none':
      return null;
    case 'jira':
      return <JiraFields d={draft.jira} set={(p) => { update({ jira: { ...draft.jira, ...p } }); }} errors={errors} />;
    case 'asana':
      return <AsanaFields d={draft.asana} set={(p) => { update({ asana: { ...draft.asana, ...p } }); }} errors={errors} />;
    case 'servicenow':
      return <ServiceNowFields d={draft.servicenow} set={(p) => { update({ servicenow: { ...draft.servicenow, ...p } }); }} errors={errors} />;
    case 'webhook':
      return <WebhookFields d={draft.webhook} set={(p) => { update({ webhook: { ...draft.webhook, ...p } }); }} errors={errors} />;
  }
}
