import { pino, type DestinationStream, type Logger } from 'pino';

/** Matches an API token anywhere in a string: clt_<8>_<43>. */
const TOKEN_PATTERN = /clt_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}/g;

export function scrubTokens(text: string): string {
  return text.replace(TOKEN_PATTERN, 'clt_[redacted]');
}

/**
 * JSON logs. Credentials never reach a line: the header paths are censored, and every string
 * of the finished line is scrubbed for token-shaped values wherever they hide (URLs, messages).
 */
export function createLogger(opts: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: opts.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { service: 'changeledger' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-csrf-token"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.secret',
          '*.token',
        ],
        censor: '[redacted]',
      },
      hooks: {
        streamWrite: (line) => scrubTokens(line),
      },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
