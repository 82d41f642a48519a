export * from './auth-types.js';
export { AuthService, SESSION_HOURS, isEmailAddress, type OrganizationInitializer } from './auth-service.js';
export { SCOPES, ROLES, isScope, type Scope, type Role } from './scopes.js';
export { MIN_PASSWORD_LENGTH } from './password.js';
export { findTokenName, listMembers } from './auth-store.js';
