// The wire shapes of cases (unauthorized changes and denied attempts), named from the server's
// OpenAPI document (./schema.d.ts, `npm run generate:types`) as ./types.ts does.
import type { Answer } from './types';

type Item<A> = A extends readonly (infer I)[] ? I : never;

export type CaseSummary = Item<Answer<'/api/cases', 'get'>['cases']>;
/** One case with its writes; the API types each write only as an object (lib/cases.ts caseWriteOf reads them). */
export type CaseDetail = Answer<'/api/cases/{id}', 'get'>['case'];
export type CaseKind = CaseSummary['kind'];
export type CaseStatus = CaseSummary['status'];
export type CaseAnswer = 'approve-rollback' | 'rolled-back' | 'keep' | 'resolve';

export const caseKinds = ['unauthorized_change', 'denied_access'] as const satisfies readonly CaseKind[];
export const caseStatuses = ['open', 'rollback_approved', 'rolled_back', 'kept', 'resolved'] as const satisfies readonly CaseStatus[];
/** Waiting for a person: what the list shows by default and the home page counts. */
export const openCaseStatuses = ['open', 'rollback_approved'] as const satisfies readonly CaseStatus[];
export const closedCaseStatuses = ['rolled_back', 'kept', 'resolved'] as const satisfies readonly CaseStatus[];
