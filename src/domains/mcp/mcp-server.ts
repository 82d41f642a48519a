/**
 * One MCP server per request, made for its caller: the tools its token's scopes allow, the reports
 * of its organisation as resources. Arguments are checked against each tool's JSON Schema first, and
 * a refusal names the field, as the HTTP API does; nothing is written on a refusal.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError,
  ReadResourceRequestSchema, type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { AppError } from '../../platform/errors.js';
import { fieldSentence, schemaProblem } from '../../platform/field-words.js';
import type { Principal } from '../auth/index.js';
import { findReport } from '../changes/index.js';
import type { AuditContext } from '../ledger/index.js';
import { tools, type Tool, type ToolDeps } from './mcp-tools.js';

export type McpDeps = ToolDeps & { logger: Logger; version: string };

export const REPORT_URI = 'changeledger://changes/{id}/report';
const REPORT_PATTERN = /^changeledger:\/\/changes\/([A-Za-z0-9_-]{1,100})\/report$/;
/** Reports listed as resources: those of the last 30 days, at most this many. */
const LISTED_REPORTS = 50;

const ajv = new Ajv({ allErrors: false, strict: false });
/** The SDK's server makes an Ajv of its own unless given one: a server is made per request, so they share ours. */
const sdkValidator = new AjvJsonSchemaValidator(ajv);
const validators = new WeakMap<Tool['input'], ValidateFunction>();
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

function validatorOf(tool: Tool): ValidateFunction {
  let v = validators.get(tool.input);
  if (!v) validators.set(tool.input, (v = ajv.compile(plain(tool.input))));
  return v;
}

/** The first problem with a tool's arguments, in a sentence that names the field. */
function argumentProblem(tool: Tool, args: unknown): { message: string; field?: string } | null {
  const validate = validatorOf(tool);
  if (validate(args)) return null;
  const issue = (validate.errors ?? [])[0] as ErrorObject | undefined;
  if (!issue) return { message: 'the arguments are invalid' };
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const extra = (issue.params as Record<string, unknown>).missingProperty ?? (issue.params as Record<string, unknown>).additionalProperty;
  const field = typeof extra === 'string' ? (path ? `${path}.${extra}` : extra) : path || undefined;
  if (issue.keyword === 'additionalProperties') return { message: `${field} is not an argument of ${tool.name}`, field };
  const problem = schemaProblem(issue.keyword, issue.params as Record<string, unknown>, issue.message);
  if (!field) return { message: `the arguments ${problem}` };
  return { message: fieldSentence({ field, problem, value: undefined }, plain(tool.input)), field };
}

const refusal = (message: string, field?: string): CallToolResult => ({
  isError: true, content: [{ type: 'text', text: field ? `${message} (field: ${field})` : message }],
});

const allowed = (p: Principal, tool: Tool) => p.kind === 'session' || p.scopes.includes(tool.scope);

export function buildMcpServer(d: McpDeps, p: Principal, ctx: AuditContext): McpServer {
  const all = tools(d);
  const mine = all.filter((t) => allowed(p, t));
  const readsReports = p.kind === 'session' || p.scopes.includes('changes:read');
  const mcp = new McpServer({ name: 'changeledger', version: d.version }, {
    capabilities: { tools: {}, ...(readsReports ? { resources: {} } : {}) },
    jsonSchemaValidator: sdkValidator,
    instructions: 'changeledger records every change to production. Ask what_changed around an incident first; every answer lists what the connected sources cannot see (neverCaptured).',
  });
  const server = mcp.server;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: mine.map((t) => ({
      name: t.name, title: t.title, description: t.description, inputSchema: plain(t.input) as never, outputSchema: plain(t.output) as never,
      annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: false, idempotentHint: t.readOnly, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const tool = all.find((t) => t.name === req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${req.params.name}; the tools are ${mine.map((t) => t.name).join(', ') || 'none for this token'}`);
    if (!allowed(p, tool)) return refusal(`this token lacks the scope ${tool.scope}, which ${tool.name} needs`);
    const args = req.params.arguments ?? {};
    const problem = argumentProblem(tool, args);
    if (problem) return refusal(problem.message, problem.field);
    try {
      const result = await tool.run(p, ctx, args);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return refusal(err.message, err.field);
      d.logger.error({ err, tool: tool.name, requestId: ctx.requestId }, 'MCP tool failed');
      return refusal(`${tool.name} failed on the server; the log has it under request ${ctx.requestId ?? 'unknown'}`);
    }
  });

  if (!readsReports) return mcp;

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: REPORT_URI, name: 'change-report', title: 'A change’s report', description: 'The latest report of a planned change, as text: verdict, evidence and AI assessment', mimeType: 'text/plain' }],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const list = await d.changes.list(p, { status: 'reported', since: '30d', limit: LISTED_REPORTS, source: 'changeledger' });
    return {
      resources: list.changes.map((c) => ({
        uri: REPORT_URI.replace('{id}', c.displayId), name: `${c.displayId} report`, title: `${c.displayId} · ${c.title}`,
        description: `Report of ${c.displayId}${'impact' in c && c.impact ? `: impact ${c.impact}` : ''}`, mimeType: 'text/plain',
      })),
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const m = REPORT_PATTERN.exec(req.params.uri);
    if (!m) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${req.params.uri}; reports are ${REPORT_URI}`);
    let c;
    try {
      c = await d.changes.getByRef(p, m[1]!);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
    const r = await findReport(d.db, c.id);
    if (!r) throw new McpError(ErrorCode.InvalidParams, `no report yet: ${c.displayId} is ${c.status}`);
    const text = r.textBody ?? `${c.displayId} · ${c.title} · report v${r.version}\n${r.summary}\n`;
    return { contents: [{ uri: req.params.uri, mimeType: 'text/plain', text }] };
  });

  return mcp;
}
