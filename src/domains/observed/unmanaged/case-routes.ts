/** Cases of unmanaged changes: people only, on the main listener; approvers answer them. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, badRequest, unauthorized } from '../../../platform/errors.js';
import { requestAuditContext } from '../../../platform/http/access.js';
import { errors } from '../../../platform/http/schemas.js';
import type { CaseService } from './case-service.js';
import { CASE_KINDS, CASE_STATUSES, type CaseCommand, type CaseKind, type CaseStatus } from './cases.js';

const Str = Type.String();
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Who = Nullable(Type.Object({ id: Str, name: Str }));

const CaseSummary = Type.Object({
  id: Str, displayId: Type.String({ description: 'CASE- and 8 characters' }), orgId: Str,
  kind: Type.Enum([...CASE_KINDS], { description: 'unauthorized_change: writes nothing vouched for; denied_access: calls a source refused' }),
  correlationKey: Type.String({ description: 'unauthorized=<account>/<principal>@<hour> or denied_access=<account>/<principal>@<hour>' }),
  principal: Str, account: Str, hour: Str, status: Type.Enum([...CASE_STATUSES]),
  rollbackApprovedBy: Who, rollbackApprovedAt: Nullable(Str), closedBy: Who, closedAt: Nullable(Str), note: Nullable(Str),
  openedAt: Str, updatedAt: Str, changes: Type.Integer({ description: 'How many writes the case holds' }),
});
const CaseDetail = Type.Object({
  ...CaseSummary.properties,
  writes: Type.Array(Type.Record(Str, Type.Unknown()), { description: 'The observed changes of the case, oldest first, each with its drafted revert' }),
  canAnswer: Type.Boolean({ description: 'Whether the reader is one of the organisation\'s approvers, who answer cases' }),
});
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, title: 'Case' }) });
const NoteBody = Type.Object({ note: Type.Optional(Type.Unknown({ title: 'Note' })) }, { additionalProperties: false });

function person(req: FastifyRequest) {
  const p = req.principal;
  if (!p) throw unauthorized();
  return p;
}

function listOf<T extends string>(field: string, raw: string | undefined, allowed: readonly T[]): T[] {
  if (!raw) return [];
  const out = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = out.find((s) => !(allowed as readonly string[]).includes(s));
  if (bad) throw badRequest(`${field} ${JSON.stringify(bad)} is not one of ${allowed.join(', ')}`, field);
  return out as T[];
}

/** A route's note field: text or absent. */
function noteOf(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new AppError(400, 'the note must be text', 'note');
  return v;
}

export const caseRoutes: FastifyPluginAsyncTypebox<{ cases: CaseService }> = async (app, { cases }) => {
  const tags = ['unmanaged'];
  const config = { access: 'session' as const };
  app.get('/api/cases', {
    config, schema: {
      tags, summary: 'Cases of unauthorized changes and denied attempts, most recently touched first (100 at most)',
      querystring: Type.Object({ status: Type.Optional(Type.String({ description: `Comma-separated: ${CASE_STATUSES.join(', ')}` })), kind: Type.Optional(Type.String({ description: `Comma-separated: ${CASE_KINDS.join(', ')}` })) }),
      response: { 200: Type.Object({ cases: Type.Array(CaseSummary) }), ...errors(400, 401, 403) },
    },
  }, async (req) => ({
    cases: await cases.list(person(req).org.id, { statuses: listOf<CaseStatus>('status', req.query.status, CASE_STATUSES), kinds: listOf<CaseKind>('kind', req.query.kind, CASE_KINDS) }),
  }));
  app.get('/api/cases/:id', {
    config, schema: { tags, summary: 'One case with its writes and their drafted reverts', params: Params, response: { 200: Type.Object({ case: CaseDetail }), ...errors(401, 403, 404) } },
  }, async (req) => {
    const p = person(req);
    return { case: await cases.get(p.org.id, req.params.id, p.user.id) };
  });

  const answers: Array<[string, CaseCommand, string]> = [
    ['approve-rollback', 'approve_rollback', 'Approve the drafted rollback (approvers): changeledger runs nothing; run the revert with your own access, then mark it done. Audited case.rollback_approved'],
    ['rolled-back', 'mark_rolled_back', 'Mark the approved rollback as run (approvers); the change can no longer be kept. Audited case.rolled_back'],
    ['keep', 'keep', 'Keep the changes as legitimate (approvers) with a note of 10 characters or more: every change of the case is authorized, "kept as legitimate: <note>". Audited change.kept per change and case.change_kept; 409 once a rollback was marked as run'],
    ['resolve', 'resolve', 'Acknowledge a case of denied attempts (approvers), with an optional note. Audited case.resolved'],
  ];
  for (const [path, command, summary] of answers) {
    app.post(`/api/cases/:id/${path}`, {
      config, schema: { tags, summary, params: Params, body: Type.Optional(NoteBody), response: { 200: Type.Object({ case: CaseDetail }), ...errors(400, 401, 403, 404, 409) } },
    }, async (req) => ({ case: await cases.answer(requestAuditContext(req), person(req), req.params.id, command, noteOf(req.body?.note)) }));
  }
};
