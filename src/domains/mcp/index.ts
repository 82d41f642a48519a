export { mcpRoutes } from './mcp-routes.js';
// The server itself is loaded at the first request (mcp-routes.ts): only its types are re-exported.
export type { McpDeps } from './mcp-server.js';
export type { Tool } from './mcp-tools.js';
