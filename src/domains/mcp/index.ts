export { mcpRoutes } from './mcp-routes.js';
export { buildMcpServer, REPORT_URI, type McpDeps } from './mcp-server.js';
export { tools, type Tool } from './mcp-tools.js';
