/**
 * A change's report versions in their four forms: JSON (the evidence with its verdict and AI
 * assessment), and the HTML, text and CSV stored with the version when it was written, so a
 * download is always what was mailed. The HTML is standalone (inline CSS, no script): it is served
 * with a CSP that allows nothing to load.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../platform/errors.js';
import { errors } from '../../platform/http/schemas.js';
import { ChangeBody } from './change-routes.js';
import { IMPACTS } from './change-store.js';
import { reportCsp, reportCsvFilename } from './report-csp.js';
import type { ChangeService } from './change-service.js';
import type { Database } from '../../platform/db/database.js';
import * as store from './change-store.js';
import type { Change, Report } from './change-store.js';


const Str = Type.String();
const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Version = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, title: 'Report version (default: the latest)' })) }, { additionalProperties: false });
const Opaque = Type.Record(Str, Type.Unknown());
const ReportJson = Type.Object({
  change: ChangeBody,
  version: Type.Integer(),
  report: Type.Object({
    version: Type.Integer(), impact: Type.Enum(IMPACTS), aiImpact: Type.Union([Type.Enum(IMPACTS), Type.Null()]), rule: Type.Union([Str, Type.Null()]),
    summary: Str, verdict: Type.Union([Opaque, Type.Null()], { description: 'The rules\' verdict {impact, rule, reason, matched, notCounted}; null on reports written before verdicts' }),
    ai: Type.Union([Opaque, Type.Null()], { description: 'The AI assessment beside the verdict; null on reports written before it' }), createdAt: Str,
  }),
  evidence: Type.Record(Str, Type.Unknown(), { description: 'The evidence the verdict rests on, as stored with the version' }),
  ticket: Type.Union([Opaque, Type.Null()]),
}, { description: 'One report version: the change as it is now, the report, and its evidence' });

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const csvCell = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** Reports written before the forms existed have only their summary: each form says that much. */
const fallback = {
  html: (c: Change, r: Report) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(`${c.displayId} report v${r.version}`)}</title></head>`
    + `<body><h1>${escapeHtml(`${c.displayId} · ${c.title}`)}</h1><p>${escapeHtml(r.summary)}</p></body></html>\n`,
  text: (c: Change, r: Report) => `${c.displayId} · ${c.title} · report v${r.version}\n${r.summary}\n`,
  csv: (_c: Change, r: Report) => `version,impact,summary\n${r.version},${r.impact},${csvCell(r.summary)}\n`,
};

export const reportRoutes: FastifyPluginAsyncTypebox<{ db: Database; changes: ChangeService }> = async (app, { db, changes }) => {
  const tags = ['changes'];
  const read = { access: { scope: 'changes:read' as const } };

  const find = async (principal: Parameters<ChangeService['get']>[0], id: string, version: number | undefined) => {
    const c = await changes.get(principal, id);
    const r = await store.findReport(db, c.id, version);
    if (!r) throw notFound(version ? `no report version ${version} of ${c.displayId}` : `no report yet: ${c.displayId} is ${c.status}`);
    return { c, r };
  };

  app.get('/api/changes/:id/report.json', {
    config: read,
    schema: { tags, summary: 'A report version of the change (the latest by default): the report, its verdict and AI assessment, and the evidence', params: Params, querystring: Version, response: { 200: ReportJson, ...errors(401, 403, 404) } },
  }, async (req) => {
    const { c, r } = await find(req.principal!, req.params.id, req.query.version);
    return {
      change: c, version: r.version,
      report: { version: r.version, impact: r.impact, aiImpact: r.aiImpact, rule: r.rule, summary: r.summary, verdict: r.verdict, ai: r.ai, createdAt: r.createdAt },
      evidence: r.body, ticket: c.ticket,
    };
  });

  app.get('/api/changes/:id/report.html', {
    config: read,
    schema: { tags, summary: 'A report version as a standalone HTML page (inline CSS, inline SVG; served with CSP default-src \'none\')', params: Params, querystring: Version, produces: ['text/html'], response: { 200: Type.String({ description: 'text/html' }), ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    const { c, r } = await find(req.principal!, req.params.id, req.query.version);
    const html = r.html ?? fallback.html(c, r);
    // Nothing on it may load or run but its own style blocks: it is self-contained, and may be opened from a mail.
    void reply.type('text/html; charset=utf-8').header('content-security-policy', reportCsp(html)).header('x-content-type-options', 'nosniff');
    return html;
  });

  app.get('/api/changes/:id/report.txt', {
    config: read,
    schema: { tags, summary: 'A report version as plain text', params: Params, querystring: Version, produces: ['text/plain'], response: { 200: Type.String({ description: 'text/plain' }), ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    const { c, r } = await find(req.principal!, req.params.id, req.query.version);
    void reply.type('text/plain; charset=utf-8');
    return r.textBody ?? fallback.text(c, r);
  });

  app.get('/api/changes/:id/report.csv', {
    config: read,
    schema: { tags, summary: 'A report version\'s RED figures and alerts as CSV, downloaded as change-<CHG id>-v<n>.csv', params: Params, querystring: Version, produces: ['text/csv'], response: { 200: Type.String({ description: 'text/csv' }), ...errors(401, 403, 404) } },
  }, async (req, reply) => {
    const { c, r } = await find(req.principal!, req.params.id, req.query.version);
    void reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${reportCsvFilename(c.displayId, r.version)}"`);
    return r.csv ?? fallback.csv(c, r);
  });
};
