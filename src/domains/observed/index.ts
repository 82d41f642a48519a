/** What the composition root and the app may use of the observed domain. */
export { IntakeService, relink, emptyCounts, cleanDiff, cleanParams, type IntakeResult, type IntakeVia } from './intake-service.js';
export { observedIntakeRoutes, INTAKE_BODY_LIMIT } from './observed-intake-routes.js';
export { observedOf, findSource, type SourceRow } from './observed-store.js';
export { resolveServices, compileMaps, type ServiceMaps } from './resolution.js';
export * from './observed-types.js';
