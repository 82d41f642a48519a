import { scopeTypes, type ScopeType } from '../api/governance-types';
import { tiers, type Tier } from '../api/types';
import { fieldMatches } from '../lib/errors';
import { commonTimeZones } from '../lib/governance-format';
import { FieldError } from './field-error';

// Parts the window form and the iCalendar import share: an IANA time zone with the common ones
// offered, and the scope (every change, some services, some environments, a criticality and up).

type ZoneProps = { id: string; label: string; value: string; onChange: (zone: string) => void; field: string | null; fieldName: string; error: string | null; hint: string };

export function TimeZoneInput({ id, label, value, onChange, field, fieldName, error, hint }: ZoneProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        className="mono-input"
        list={`${id}-zones`}
        maxLength={100}
        value={value}
        placeholder="Europe/Berlin"
        onChange={(e) => { onChange(e.target.value); }}
        aria-invalid={fieldMatches(field, fieldName) ? true : undefined}
        spellCheck={false}
        autoComplete="off"
        data-testid={id}
      />
      <datalist id={`${id}-zones`}>
        {commonTimeZones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <span className="muted small">{hint}</span>
      <FieldError field={field} name={fieldName} message={error} />
    </div>
  );
}

export type ScopeDraft = { scopeType: ScopeType; services: string; environments: string; atLeast: Tier };

const scopeLabels: Record<ScopeType, string> = {
  all: 'Every change',
  services: 'Some services',
  environments: 'Some environments',
  criticality: 'Criticality at least',
};

type ScopeProps = { idPrefix: string; value: ScopeDraft; onChange: (patch: Partial<ScopeDraft>) => void; field: string | null; error: string | null };

export function ScopeFields({ idPrefix, value, onChange, field, error }: ScopeProps) {
  const invalid = (name: string): true | undefined => (fieldMatches(field, name) ? true : undefined);
  return (
    <div className="gov-pair">
      <div className="field">
        <label htmlFor={`${idPrefix}-scope`}>Applies to</label>
        <select id={`${idPrefix}-scope`} value={value.scopeType} onChange={(e) => { onChange({ scopeType: e.target.value as ScopeType }); }} aria-invalid={invalid('scope.type')} data-testid={`${idPrefix}-scope`}>
          {scopeTypes.map((t) => (
            <option key={t} value={t}>
              {scopeLabels[t]}
            </option>
          ))}
        </select>
        <FieldError field={field === 'scope' || field === 'scope.type' ? field : null} name="scope" message={error} />
      </div>
      {value.scopeType === 'services' && (
        <div className="field">
          <label htmlFor={`${idPrefix}-scope-services`}>Services</label>
          <textarea id={`${idPrefix}-scope-services`} className="mono-input" rows={2} value={value.services} placeholder={'svc:checkout\nsvc:pay*'} onChange={(e) => { onChange({ services: e.target.value }); }} aria-invalid={invalid('scope.services')} spellCheck={false} data-testid={`${idPrefix}-scope-services`} />
          <span className="muted small">Catalogue keys, names or globs, one a line.</span>
          <FieldError field={field} name="scope.services" message={error} />
        </div>
      )}
      {value.scopeType === 'environments' && (
        <div className="field">
          <label htmlFor={`${idPrefix}-scope-environments`}>Environments</label>
          <textarea id={`${idPrefix}-scope-environments`} className="mono-input" rows={2} value={value.environments} placeholder={'production\nprod-*'} onChange={(e) => { onChange({ environments: e.target.value }); }} aria-invalid={invalid('scope.environments')} spellCheck={false} data-testid={`${idPrefix}-scope-environments`} />
          <span className="muted small">Environment names or globs, one a line.</span>
          <FieldError field={field} name="scope.environments" message={error} />
        </div>
      )}
      {value.scopeType === 'criticality' && (
        <div className="field">
          <label htmlFor={`${idPrefix}-scope-at-least`}>Criticality</label>
          <select id={`${idPrefix}-scope-at-least`} value={value.atLeast} onChange={(e) => { onChange({ atLeast: e.target.value as Tier }); }} aria-invalid={invalid('scope.atLeast')} data-testid={`${idPrefix}-scope-at-least`}>
            {[...tiers].reverse().map((t) => (
              <option key={t} value={t}>
                {t === 'critical' ? 'critical' : `${t} or more critical`}
              </option>
            ))}
          </select>
          <FieldError field={field} name="scope.atLeast" message={error} />
        </div>
      )}
    </div>
  );
}
