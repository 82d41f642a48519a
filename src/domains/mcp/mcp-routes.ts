/**
 * MCP over Streamable HTTP at /mcp on the pipeline listener, stateless: each POST carries a bearer
 * token, gets a server made for that token, and is answered with JSON. There is no session to
 * resume and no stream to open, so GET and DELETE answer 405, as the transport's spec allows.
 */
import type { FastifyPluginAsync } from 'fastify';
import { requestAuditContext } from '../../platform/http/access.js';
import type { McpDeps } from './mcp-server.js';

/**
 * The MCP server and its SDK (with zod, about a fifteenth of the server's code), loaded at the
 * first request to /mcp: a server nobody asks over MCP starts without parsing them.
 */
let loaded: Promise<[typeof import('./mcp-server.js'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]> | null = null;
const load = () => (loaded ??= Promise.all([import('./mcp-server.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

/** The request headers the transport reads. */
const PASSED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

export const mcpRoutes: FastifyPluginAsync<{ mcp: McpDeps }> = async (app, { mcp }) => {
  app.post('/mcp', { config: { access: 'token' }, schema: { hide: true } }, async (req, reply) => {
    const [{ buildMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await load();
    const server = buildMcpServer(mcp, req.principal!, requestAuditContext(req));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const name of PASSED) {
        const v = req.headers[name];
        if (typeof v === 'string') headers.set(name, v);
      }
      const res = await transport.handleRequest(new Request(`http://mcp.invalid${req.url}`, { method: 'POST', headers }), { parsedBody: req.body });
      void reply.code(res.status);
      res.headers.forEach((value, name) => {
        if (name !== 'content-length') void reply.header(name, value);
      });
      const body = await res.text();
      return reply.send(body === '' ? undefined : body);
    } finally {
      await server.close();
    }
  });

  const noStream = async (_req: unknown, reply: { code(n: number): { header(k: string, v: string): { send(b: unknown): unknown } } }) =>
    reply.code(405).header('allow', 'POST').send({ error: 'this MCP endpoint is stateless: send each JSON-RPC message with POST; there is no stream to open and no session to end' });
  app.get('/mcp', { config: { access: 'public' }, schema: { hide: true } }, noStream as never);
  app.delete('/mcp', { config: { access: 'public' }, schema: { hide: true } }, noStream as never);
};
