// The wire shapes of governance — standard-change templates, change and freeze windows, the
// calendar — and the governance fields of a change, named from the server's OpenAPI document
// (./schema.d.ts, `npm run generate:types`) as ./types.ts does.
import type { components } from './schema';
import type { Answer, Body, Change, ChangeStatusAnswer, RegisteredChange } from './types';

type Schema<N extends keyof components['schemas']> = components['schemas'][N];
type Item<A> = A extends readonly (infer I)[] ? I : never;

// ---------- Class and risk tier of a change ----------

export type ChangeClass = Change['changeClass'];
export const changeClasses = ['standard', 'normal', 'emergency'] as const satisfies readonly ChangeClass[];
export type ClassSource = Change['changeClassSource'];
export type RiskTier = NonNullable<Change['riskTier']>;
export const riskTiers = ['L1', 'L2', 'L3'] as const satisfies readonly RiskTier[];
export type WindowBypass = NonNullable<Change['windowBypassed']>;
export type EmergencyInfo = NonNullable<Change['emergency']>;
export type Governance = NonNullable<RegisteredChange['governance']>;
export type RegisteredWindows = NonNullable<RegisteredChange['windows']>;
export type WindowVerdict = Schema<'WindowVerdict'>;
export type WindowConflict = Schema<'WindowConflict'>;
export type WindowRef = NonNullable<WindowVerdict['window']>;
export type ApprovalStatus = ChangeStatusAnswer['approval'];
export type ClassPolicy = Answer<'/api/organizations/{id}/change-settings', 'get'>['settings']['changeClassPolicy'];
export const classPolicies = ['normal_by_default', 'standard_by_default'] as const satisfies readonly ClassPolicy[];

// ---------- Standard-change templates ----------

export type Template = Schema<'ChangeTemplate'>;
export type TemplateState = Template['state'];
export const templateStates = ['draft', 'certified', 'withdrawn'] as const satisfies readonly TemplateState[];
export type TemplateInput = Body<'/api/change-templates', 'post'>;
export type TemplatePatch = Body<'/api/change-templates/{id}', 'put'>;
export type TemplateEdited = Answer<'/api/change-templates/{id}', 'put'>;

// ---------- Change and freeze windows ----------

export type ChangeWindow = Schema<'ChangeWindow'>;
export type WindowKind = ChangeWindow['kind'];
export const windowKinds = ['change', 'freeze'] as const satisfies readonly WindowKind[];
export type WindowSchedule = ChangeWindow['schedule'];
export type RecurringSchedule = Extract<WindowSchedule, { type: 'rrule' }>;
export type OnceSchedule = Extract<WindowSchedule, { type: 'once' }>;
export type WindowScope = ChangeWindow['scope'];
export type ScopeType = WindowScope['type'];
export const scopeTypes = ['all', 'services', 'environments', 'criticality'] as const satisfies readonly ScopeType[];
/** What POST /api/change-windows takes: the schedule and scope are typed here, the wire says only unknown. */
export type WindowInput = Omit<Body<'/api/change-windows', 'post'>, 'schedule' | 'scope'> & { schedule: WindowSchedule; scope: WindowScope };
export type IcsImportInput = Omit<Body<'/api/change-windows/import', 'post'>, 'scope'> & { scope?: WindowScope };
export type IcsImportAnswer = Answer<'/api/change-windows/import', 'post'>;
export type SkippedEvent = Item<IcsImportAnswer['skipped']>;

// ---------- The calendar ----------

export type Calendar = Answer<'/api/change-calendar', 'get'>;
export type CalendarOccurrence = Item<Calendar['occurrences']>;
export type CalendarChange = Item<Calendar['changes']>;
