import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../../platform/http/schemas.js';
import { LOGS_BODY_LIMIT, LOGS_INTAKE_PER_MINUTE, LogsRefused, type LogIntake, type LogsEncoding } from './log-intake.js';
import { jsonResponse, protobufResponse, protobufStatus, STATUS_INVALID_ARGUMENT } from './otlp-logs.js';

/**
 * OTLP/HTTP logs intake (https://opentelemetry.io/docs/specs/otlp/#otlphttp): an OpenTelemetry
 * SDK or collector posts ExportLogsServiceRequest to /v1/logs as protobuf or JSON, gzip or not,
 * and reads the ExportLogsServiceResponse in the encoding it sent. Only on the pipeline listener,
 * with a token holding logs:write. This plugin owns its content-type parsers: the bytes are read
 * whole and decoded here, since a gzip body is not JSON until it is inflated.
 */

const PROTOBUF = 'application/x-protobuf';
const JSON_TYPE = 'application/json';

const PartialSuccessBody = Type.Object({
  rejectedLogRecords: Type.String({ description: 'How many records were refused (int64 as a decimal string, as OTLP/JSON writes it)' }),
  errorMessage: Type.String({ description: 'Why, in words' }),
}, { additionalProperties: false });

const ExportLogsResponse = Type.Object({
  partialSuccess: Type.Optional(PartialSuccessBody),
}, {
  additionalProperties: false,
  description: 'ExportLogsServiceResponse: {} when every record was stored; partialSuccess when some were refused (too old to keep, or stamped too far ahead). A protobuf request gets it in protobuf.',
});

const OtlpRefusal = Type.Object({
  error: Type.String(), code: Type.Optional(Type.Integer({ description: 'google.rpc.Code (3: INVALID_ARGUMENT)' })), message: Type.Optional(Type.String()),
}, { additionalProperties: true, description: 'A JSON request\'s refusal: {error} as every route answers, with google.rpc.Status\'s code and message; a protobuf request gets the Status in protobuf.' });

export const otlpLogsRoutes: FastifyPluginAsyncTypebox<{ logs: LogIntake }> = async (app, { logs }) => {
  // Raw bytes for both encodings, in this plugin only: decoding (and inflating) happens below.
  app.removeContentTypeParser(JSON_TYPE);
  app.addContentTypeParser([JSON_TYPE, PROTOBUF], { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.post('/v1/logs', {
    config: { access: { scope: 'logs:write' as const }, pipelineBodyLimit: LOGS_BODY_LIMIT, tokensPerMinute: LOGS_INTAKE_PER_MINUTE },
    bodyLimit: LOGS_BODY_LIMIT,
    schema: {
      tags: ['evidence'],
      summary: 'OTLP/HTTP logs (ExportLogsServiceRequest, protobuf or JSON, gzip or not): stored for the logs part of change reports',
      description: [
        'Point an OpenTelemetry SDK\'s or collector\'s OTLP/HTTP logs exporter at the pipeline listener\'s /v1/logs with `Authorization: Bearer <token with logs:write>`.',
        `Bodies up to ${LOGS_BODY_LIMIT / 1024 / 1024} MiB on the wire (gzip welcome). The service of a record is its resource's service.name; its time timeUnixNano, else observedTimeUnixNano, else when received.`,
        'Records stamped more than 9 days ago or an hour ahead are refused in partialSuccess. Not audited: counted in /metrics (changeledger_logs_received_total, changeledger_logs_rejected_total).',
      ].join(' '),
      consumes: [PROTOBUF, JSON_TYPE],
      body: Type.Unknown({ description: 'ExportLogsServiceRequest (opentelemetry-proto collector/logs/v1), protobuf or OTLP/JSON' }),
      response: { 200: ExportLogsResponse, 400: OtlpRefusal, 413: OtlpRefusal, 415: OtlpRefusal, ...errors(401, 403, 429) },
    },
  }, async (req, typed) => {
    // Protobuf answers are bytes, which the JSON schema's typing does not describe.
    const reply: FastifyReply = typed;
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const encoding: LogsEncoding = type === PROTOBUF ? 'protobuf' : 'json';
    // A POST without a body reaches us as {} (the house's empty-body rule): an empty request.
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    try {
      const { partial } = await logs.receive(req.principal!.org.id, encoding, raw, req.headers['content-encoding'] as string | undefined);
      if (encoding === 'protobuf') return reply.type(PROTOBUF).send(Buffer.from(protobufResponse(partial)));
      return reply.type(JSON_TYPE).send(jsonResponse(partial));
    } catch (err) {
      if (!(err instanceof LogsRefused)) throw err;
      reply.status(err.status);
      if (encoding === 'protobuf') return reply.type(PROTOBUF).send(Buffer.from(protobufStatus(STATUS_INVALID_ARGUMENT, err.message)));
      return reply.type(JSON_TYPE).send({ error: err.message, code: STATUS_INVALID_ARGUMENT, message: err.message });
    }
  });
};
