/** What the composition root uses of governance: templates and windows. */
export { TemplateService } from './template-service.js';
export { WindowService } from './window-service.js';
export { governanceRoutes } from './governance-routes.js';
