import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { invalid } from '../../platform/errors.js';
import { errors } from '../../platform/http/schemas.js';
import { changeStats, STATS_TOP_DENIED_PRINCIPALS, STATS_TOP_SERVICES } from './change-stats.js';

const DAY_MS = 86_400_000;
/** Without since: this far back from until. */
export const STATS_DEFAULT_DAYS = 7;
/** The longest range one request may count: a year, leap day included. */
export const STATS_MAX_DAYS = 366;

const Time = (title: string, description: string) => Type.Optional(Type.String({ format: 'date-time', maxLength: 40, title, description }));
const Count = (description: string) => Type.Integer({ minimum: 0, description });

const StatsQuerystring = Type.Object({
  since: Time('Since', `ISO-8601 time with a zone; counted from here, inclusive. Default: ${STATS_DEFAULT_DAYS} days before until`),
  until: Time('Until', 'ISO-8601 time with a zone; counted up to here, exclusive. Default: now'),
}, { additionalProperties: false });

const StatsBody = Type.Object({
  since: Type.String({ description: 'Start of the range counted (inclusive), UTC' }),
  until: Type.String({ description: 'End of the range counted (exclusive), UTC' }),
  total: Count('Changes in the range: planned changes by window start, flag writes, observed changes. Never a denied attempt'),
  bySource: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Changes per source: changeledger (planned), flags, or a connection kind (github … webhook); denied attempts excluded' }),
  byService: Type.Array(Type.Object({
    service: Type.String({ description: 'The main service key; empty for changes linked to no service (unmapped)' }),
    count: Count('Changes whose main service this is'),
  }, { additionalProperties: false }), { description: `The ${STATS_TOP_SERVICES} services with the most changes, most first, then by key; denied attempts excluded` }),
  unauthorized: Count('Observed changes the reference rule flagged as unauthorized (denied attempts excluded)'),
  denied: Type.Object({
    total: Count('Denied attempts: writes the source refused (access attempts, not changes)'),
    byPrincipal: Type.Array(Type.Object({
      principal: Type.String({ description: 'Who tried: the principal’s name as the source gave it' }),
      account: Type.String({ description: 'Where: the cloud account, else the Azure subscription, else the Kubernetes cluster; empty when the source named none' }),
      count: Count('Denied attempts of this principal in this account'),
    }, { additionalProperties: false }), { description: `The ${STATS_TOP_DENIED_PRINCIPALS} principal · account pairs with the most denied attempts, most first` }),
  }, { additionalProperties: false, description: 'Denied attempts, counted apart from the changes' }),
}, { $id: 'ChangeStats', additionalProperties: false, description: 'How many changes in the range, from where, on which services; denied attempts apart' });

/** The schema checked the form; a time it lets through that is no instant (a leap second, 23:59:60) is refused here. */
function timeOf(field: 'since' | 'until', text: string): Date {
  const d = new Date(text);
  if (Number.isNaN(d.getTime())) throw invalid(field, 'must be a date and time such as 2026-01-31T09:00:00Z');
  return d;
}

/** Counts of the one change list over a time range (GET /api/changes/stats). */
export const changeStatsRoutes: FastifyPluginAsyncTypebox<{ db: Database; clock: Clock }> = async (app, { db, clock }) => {
  app.get('/api/changes/stats', {
    config: { access: { scope: 'changes:read' as const } },
    schema: {
      tags: ['changes'],
      summary: `Counts of the one change list over [since, until) (default: the last ${STATS_DEFAULT_DAYS} days, at most ${STATS_MAX_DAYS}): total, per source, per service, unauthorized, and denied attempts apart`,
      querystring: StatsQuerystring,
      response: { 200: StatsBody, ...errors(400, 401, 403) },
    },
  }, async (req) => {
    const until = req.query.until === undefined ? clock.now() : timeOf('until', req.query.until);
    const since = req.query.since === undefined ? new Date(until.getTime() - STATS_DEFAULT_DAYS * DAY_MS) : timeOf('since', req.query.since);
    if (since > until) throw invalid('since', 'must not be after until');
    if (until.getTime() - since.getTime() > STATS_MAX_DAYS * DAY_MS) throw invalid('since', `must be at most ${STATS_MAX_DAYS} days before until`);
    return changeStats(db, req.principal!.org.id, since, until);
  });
};
