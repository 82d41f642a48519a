// The wire shapes of a change's before-state, its rollback and its validation plan (issue #18),
// named from the server's OpenAPI document (./schema.d.ts, `npm run generate:types`) as
// ./types.ts does: change a route's schema, regenerate, and the UI sees it where it compiles.
import type { components } from './schema';
import type { Answer, Body, ChangeInput } from './types';

type Schema<N extends keyof components['schemas']> = components['schemas'][N];
type Item<A> = A extends readonly (infer I)[] ? I : never;

// ---------- Before-state (last-known-good) captures ----------

export type BeforeState = Answer<'/api/changes/{id}/before-state', 'get'>;
export type Capture = Schema<'Capture'>;
export type CaptureMethod = Capture['method'];
export type Completeness = Capture['completeness'];
export const completenessValues = ['complete', 'partial', 'unknown'] as const satisfies readonly Completeness[];
export type PrestateStatus = Capture['prestateStatus'];
export type BeforeStateNeed = BeforeState['need'];
export type FlagBefore = Item<BeforeState['flagWrites']>;
export type BeforeStateAdded = Answer<'/api/changes/{id}/before-state', 'post', 201>;
/** A before-state as registration takes it (previousVersion, previousCommit, beforeState: {artifact…}); POST …/before-state takes the same. */
export type BeforeStateFields = Pick<ChangeInput, 'previousVersion' | 'previousCommit' | 'beforeState'>;
export type BeforeStateInput = Body<'/api/changes/{id}/before-state', 'post'>;

// ---------- Rollback ----------

export type Rollback = Schema<'Rollback'>;
export type RollbackPath = Rollback['path'];
export type RollbackKind = RollbackPath['kind'];
export type RollbackState = NonNullable<Rollback['state']>;
export type SweepDecision = NonNullable<Rollback['decision']>;
export type RollbackReleased = Answer<'/api/changes/{id}/rollback', 'post'>;
export type RollbackResult = Body<'/api/changes/{id}/rollback/complete', 'post'>['result'];

// ---------- Validation plan ----------

export type Validation = Answer<'/api/changes/{id}/validation', 'get'>;
export type ValidationItem = Item<NonNullable<Validation['plan']>>;
export type ValidationRow = Item<Validation['rows']>;
export type ValidationResult = NonNullable<Validation['result']>;
export type Comparator = ValidationItem['expected']['op'];
export const comparators = ['<', '<=', '>', '>=', '==', '!='] as const satisfies readonly Comparator[];
export type CheckKind = ValidationItem['check'];
export const checkKinds = ['promql', 'http'] as const satisfies readonly CheckKind[];
/** The register form sends at most this many items (the server says 10 too). */
export const MAX_VALIDATION_ITEMS = 10;
